package dev.kubeheadroom.policy;

/** One container's limit change: {@code fromMilli} 0 means it had no limit. */
public record ContainerTarget(String name, long fromMilli, long toMilli) {}
