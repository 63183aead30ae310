package dev.kubeheadroom.pipeline;

/** A stage that failed, and why. */
public record StageFailure(String stage, Throwable cause) {}
