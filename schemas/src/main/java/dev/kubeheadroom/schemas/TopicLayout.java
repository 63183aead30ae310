package dev.kubeheadroom.schemas;

import java.time.Duration;

/**
 * How the pipeline's topics are created when they do not exist yet.
 *
 * @param partitions partitions of every node-keyed topic (they must all share one count)
 * @param replicationFactor replicas per partition
 * @param retention retention of the node-keyed topics: the audit window (default 7 days)
 */
public record TopicLayout(int partitions, short replicationFactor, Duration retention) {
  public static final int DEFAULT_PARTITIONS = 6;
  public static final short DEFAULT_REPLICATION_FACTOR = 3;
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
  }

  /** One broker, one copy: the embedded default. */
  public static TopicLayout singleBroker(int partitions) {
    return new TopicLayout(partitions, (short) 1, DEFAULT_RETENTION);
  }
}
