package dev.kubeheadroom.schemas;

/** A pod's owner reference (for exclusion lists and audit). */
public record OwnerRef(String kind, String name, String uid, boolean controller) {}
