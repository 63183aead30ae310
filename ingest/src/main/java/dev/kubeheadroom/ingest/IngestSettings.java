package dev.kubeheadroom.ingest;

import dev.kubeheadroom.schemas.KafkaClientSettings;
import dev.kubeheadroom.schemas.TopicLayout;
import dev.kubeheadroom.schemas.Topics;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Everything the ingest stage is built from, parsed once at the edge (the CLI) and passed down.
 *
 * @param kafka Kafka's address and client properties (security, timeouts); the properties
 *     cannot turn off idempotence or {@code acks=all}
 * @param topics topic names (prefix {@code headroom.} by default)
 * @param topicLayout when non-null, missing topics are created with this layout when Kafka is
 *     first reached (and the node-keyed partition counts are checked); null: topics must exist
 * @param resyncPeriod how often the leader publishes a node sync for every node (default 10 min)
 * @param lease leader election settings
 * @param bufferCapacity records held while Kafka is slow or down (queued plus unacknowledged,
 *     default {@value #DEFAULT_BUFFER_CAPACITY}); beyond it, records are not queued and a full
 *     re-publish follows once Kafka is back
 * @param kafkaRetryBackoff pause between attempts while Kafka does not answer (default 1 s)
 * @param statusInterval the HeadroomConfig status is written at most this often, and only when a
 *     value in it changed (default 10 s)
 */
public record IngestSettings(
    KafkaClientSettings kafka,
    Topics topics,
    TopicLayout topicLayout,
    Duration resyncPeriod,
    LeaseSettings lease,
    int bufferCapacity,
    Duration kafkaRetryBackoff,
    Duration statusInterval) {

  public static final Duration DEFAULT_RESYNC_PERIOD = Duration.ofMinutes(10);
  public static final int DEFAULT_BUFFER_CAPACITY = 200_000;
  public static final Duration DEFAULT_KAFKA_RETRY_BACKOFF = Duration.ofSeconds(1);
  public static final Duration DEFAULT_STATUS_INTERVAL = Duration.ofSeconds(10);

  public IngestSettings {
    Objects.requireNonNull(kafka, "kafka");
    Objects.requireNonNull(topics, "topics");
    positive(resyncPeriod, "resyncPeriod");
    Objects.requireNonNull(lease, "lease");
    if (bufferCapacity < 1) {
      throw new IllegalArgumentException("bufferCapacity must be >= 1, got " + bufferCapacity);
    }
    positive(kafkaRetryBackoff, "kafkaRetryBackoff");
    positive(statusInterval, "statusInterval");
  }

  /** The defaults: prefix {@code headroom.}, topics must exist, 10 min resync, default lease. */
  public static IngestSettings defaults(KafkaClientSettings kafka, String identity) {
    return new IngestSettings(kafka, Topics.defaults(), null,
        DEFAULT_RESYNC_PERIOD, LeaseSettings.defaults(identity), DEFAULT_BUFFER_CAPACITY,
        DEFAULT_KAFKA_RETRY_BACKOFF, DEFAULT_STATUS_INTERVAL);
  }

  /**
   * These settings with some changed: {@code settings.with(b -> b.statusInterval = d)}, the
   * settings classes' one copy style (as {@code ActuatorSettings#with}).
   */
  public IngestSettings with(Consumer<Builder> change) {
    Builder b = new Builder();
    change.accept(b);
    return new IngestSettings(b.kafka, b.topics, b.topicLayout, b.resyncPeriod, b.lease,
        b.bufferCapacity, b.kafkaRetryBackoff, b.statusInterval);
  }

  /** The components of the settings {@link #with} starts from (these settings'), to assign. */
  public final class Builder {
    public KafkaClientSettings kafka = IngestSettings.this.kafka;
    public Topics topics = IngestSettings.this.topics;
    public TopicLayout topicLayout = IngestSettings.this.topicLayout;
    public Duration resyncPeriod = IngestSettings.this.resyncPeriod;
    public LeaseSettings lease = IngestSettings.this.lease;
    public int bufferCapacity = IngestSettings.this.bufferCapacity;
    public Duration kafkaRetryBackoff = IngestSettings.this.kafkaRetryBackoff;
    public Duration statusInterval = IngestSettings.this.statusInterval;
  }

  /** Kafka {@code bootstrap.servers}. */
  public String bootstrapServers() {
    return kafka.bootstrapServers();
  }

  /** The Kafka client properties beyond {@code bootstrap.servers}. */
  public Map<String, String> clientProperties() {
    return kafka.properties();
  }

  static void positive(Duration d, String name) {
    if (d == null || d.isZero() || d.isNegative()) {
      throw new IllegalArgumentException(name + " must be a positive duration, got " + d);
    }
  }

  /**
   * Leader election on a {@code coordination.k8s.io/v1} Lease; client-go's defaults.
   *
   * @param namespace the Lease's namespace (default {@value #DEFAULT_NAMESPACE})
   * @param name the Lease's name (default {@value #DEFAULT_NAME})
   * @param identity this instance's holder identity (the pod name, usually); must be unique
   * @param leaseDuration how long a lease holds without renewal (default 15 s)
   * @param renewDeadline how long the leader keeps trying to renew before giving up (default 10 s)
   * @param retryPeriod how often candidates try and the leader renews (default 2 s)
   */
  public record LeaseSettings(
      String namespace, String name, String identity, Duration leaseDuration,
      Duration renewDeadline, Duration retryPeriod) {
    public static final String DEFAULT_NAMESPACE = "kube-headroom";
    public static final String DEFAULT_NAME = "headroom-ingest";

    public LeaseSettings {
      text(namespace, "lease namespace");
      text(name, "lease name");
      text(identity, "lease identity");
      positive(leaseDuration, "leaseDuration");
      positive(renewDeadline, "renewDeadline");
      positive(retryPeriod, "retryPeriod");
      if (renewDeadline.compareTo(leaseDuration) >= 0) {
        throw new IllegalArgumentException("renewDeadline must be shorter than leaseDuration");
      }
      if (retryPeriod.compareTo(renewDeadline) >= 0) {
        throw new IllegalArgumentException("retryPeriod must be shorter than renewDeadline");
      }
    }

    public static LeaseSettings defaults(String identity) {
      return new LeaseSettings(DEFAULT_NAMESPACE, DEFAULT_NAME, identity, Duration.ofSeconds(15),
          Duration.ofSeconds(10), Duration.ofSeconds(2));
    }

    /** These settings with some changed: {@code lease.with(b -> b.retryPeriod = d)}, as {@link IngestSettings#with}. */
    public LeaseSettings with(Consumer<Builder> change) {
      Builder b = new Builder();
      change.accept(b);
      return new LeaseSettings(b.namespace, b.name, b.identity, b.leaseDuration, b.renewDeadline, b.retryPeriod);
    }

    /** The components of the settings {@link #with} starts from (these settings'), to assign. */
    public final class Builder {
      public String namespace = LeaseSettings.this.namespace;
      public String name = LeaseSettings.this.name;
      public String identity = LeaseSettings.this.identity;
      public Duration leaseDuration = LeaseSettings.this.leaseDuration;
      public Duration renewDeadline = LeaseSettings.this.renewDeadline;
      public Duration retryPeriod = LeaseSettings.this.retryPeriod;
    }

    private static void text(String s, String what) {
      if (s == null || s.isBlank()) {
        throw new IllegalArgumentException(what + " is required");
      }
    }
  }
}
