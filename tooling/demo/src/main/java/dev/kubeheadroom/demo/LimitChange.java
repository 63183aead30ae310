package dev.kubeheadroom.demo;

import java.time.Instant;

/** One container's CPU limit change seen at the API server ({@code fromMilli} 0: none before). */
public record LimitChange(Instant at, String namespace, String pod, String node, String container,
    long fromMilli, long toMilli) {}
