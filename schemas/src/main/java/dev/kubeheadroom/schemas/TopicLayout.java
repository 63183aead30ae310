package dev.kubeheadroom.schemas;

import java.time.Duration;

/**
 * How the pipeline's topics are created when they do not exist yet.
 *
 * @param partitions partitions of every node-keyed topic (they must all share one count)
 * @param replicationFactor replicas per partition
 * @param retention retention of the node-keyed topics: the audit window (default 7 days)
 * @param minInsyncReplicas each topic's {@code min.insync.replicas}: how many replicas must have
 *     a record before an {@code acks=all} producer (every Headroom producer) is told it is
 *     written. Capped at {@code replicationFactor}, so one knob's default never makes the other's
 *     smaller value unwritable (default 2: with 3 replicas, one broker may be down and nothing
 *     acknowledged lives on one disk only)
 */
public record TopicLayout(int partitions, short replicationFactor, Duration retention, int minInsyncReplicas) {
  public static final int DEFAULT_PARTITIONS = 6;
  public static final short DEFAULT_REPLICATION_FACTOR = 3;
  public static final int DEFAULT_MIN_INSYNC_REPLICAS = 2;
  public static final Duration DEFAULT_RETENTION = Duration.ofDays(7);

  public TopicLayout {
    if (partitions < 1) {
      throw new IllegalArgumentException("partitions must be >= 1, got " + partitions);
    }
    if (replicationFactor < 1) {
      throw new IllegalArgumentException("replication factor must be >= 1, got " + replicationFactor);
    }
    if (retention == null || retention.isNegative() || retention.isZero()) {
      throw new IllegalArgumentException("retention must be a positive duration");
    }
    if (minInsyncReplicas < 1) {
      throw new IllegalArgumentException("min in-sync replicas must be >= 1, got " + minInsyncReplicas);
    }
    minInsyncReplicas = Math.min(minInsyncReplicas, replicationFactor);
  }

  /** The default min ISR ({@value #DEFAULT_MIN_INSYNC_REPLICAS}, capped at the replication factor). */
  public TopicLayout(int partitions, short replicationFactor, Duration retention) {
    this(partitions, replicationFactor, retention, DEFAULT_MIN_INSYNC_REPLICAS);
  }

  /** One broker, one copy: the embedded default. */
  public static TopicLayout singleBroker(int partitions) {
    return new TopicLayout(partitions, (short) 1, DEFAULT_RETENTION);
  }
}
