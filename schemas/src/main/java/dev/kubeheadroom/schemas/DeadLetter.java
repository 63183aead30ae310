package dev.kubeheadroom.schemas;

import java.time.Instant;

/** A record no stage could read, kept with where it came from and why. */
public record DeadLetter(
    String topic, int partition, long offset, String key, String reason, String payload,
    Instant at)
    implements Versioned {}
