package dev.kubeheadroom.cli;

import dev.kubeheadroom.schemas.TopicBootstrap;
import dev.kubeheadroom.schemas.TopicLayout;
import dev.kubeheadroom.schemas.Topics;
import java.time.Duration;
import org.apache.kafka.clients.admin.Admin;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Option;

/** The topic names and, when Headroom creates them, their layout. */
public final class TopicOptions {
  private static final Logger LOG = LoggerFactory.getLogger(TopicOptions.class);
  static final Duration SETUP_TIMEOUT = Duration.ofSeconds(60);
  /** Between two tries of the topic set-up while Kafka does not answer. */
  private static final Duration RETRY = Duration.ofSeconds(5);

  @Option(names = "--topic-prefix", paramLabel = "PREFIX",
      defaultValue = "${env:HEADROOM_TOPIC_PREFIX:-headroom.}",
      description = "Prefix of every topic, so clusters can share one Kafka (default: ${DEFAULT-VALUE}). Env: HEADROOM_TOPIC_PREFIX.")
  String prefix;

  @Option(names = "--topic-create", paramLabel = "true|false", arity = "1",
      defaultValue = "${env:HEADROOM_TOPIC_CREATE:-true}",
      description = "Create missing topics at start (default: ${DEFAULT-VALUE}). Env: HEADROOM_TOPIC_CREATE.")
  boolean create;

  @Option(names = "--topic-partitions", paramLabel = "N",
      defaultValue = "${env:HEADROOM_TOPIC_PARTITIONS:-6}",
      description = "Partitions of each node-keyed topic when created (default: ${DEFAULT-VALUE}). Env: HEADROOM_TOPIC_PARTITIONS.")
  int partitions;

  @Option(names = "--topic-replication-factor", paramLabel = "N",
      defaultValue = "${env:HEADROOM_TOPIC_REPLICATION_FACTOR:-3}",
      description = "Replicas per partition when created; 1 on the embedded broker (default: ${DEFAULT-VALUE}). "
          + "Env: HEADROOM_TOPIC_REPLICATION_FACTOR.")
  short replicationFactor;

  @Option(names = "--topic-min-insync-replicas", paramLabel = "N",
      defaultValue = "${env:HEADROOM_TOPIC_MIN_INSYNC_REPLICAS:-2}",
      description = "min.insync.replicas of every topic when created (Headroom's producers use acks=all), "
          + "capped at the replication factor (default: ${DEFAULT-VALUE}). Env: HEADROOM_TOPIC_MIN_INSYNC_REPLICAS.")
  int minInsyncReplicas;

  @Option(names = "--topic-retention", paramLabel = "DURATION",
      defaultValue = "${env:HEADROOM_TOPIC_RETENTION:-168h}",
      description = "Retention of the node-keyed topics: the audit window (default: ${DEFAULT-VALUE}). Env: HEADROOM_TOPIC_RETENTION.")
  String retention;

  Topics topics() {
    try {
      return new Topics(prefix);
    } catch (IllegalArgumentException e) {
      throw new UserError("--topic-prefix: " + e.getMessage());
    }
  }

  TopicLayout layout(KafkaConnection kafka) {
    Duration keep = DurationFlag.parse("--topic-retention", retention);
    try {
      return new TopicLayout(partitions, kafka.isEmbedded() ? 1 : replicationFactor, keep, minInsyncReplicas);
    } catch (IllegalArgumentException e) {
      throw new UserError("--topic-*: " + e.getMessage());
    }
  }

  /**
   * Creates missing topics (when asked) and checks the partition layout every stage relies on.
   * While Kafka does not answer, asks again every {@link #SETUP_TIMEOUT}: a stage waits for Kafka
   * (its /readyz answers 503 meanwhile) rather than exit, since a restart would not bring Kafka
   * back. A layout Kafka does answer about and refuses is the user's to fix (exit 2).
   */
  Topics prepare(KafkaConnection kafka) {
    Topics topics = topics();
    TopicLayout layout = layout(kafka);
    while (true) {
      try (Admin admin = kafka.admin()) {
        if (create) {
          TopicBootstrap.ensure(admin, topics, layout, SETUP_TIMEOUT);
        } else {
          TopicBootstrap.verify(admin, topics, SETUP_TIMEOUT);
        }
        return topics;
      } catch (TopicBootstrap.KafkaUnreachable e) {
        LOG.warn("{}; waiting for Kafka, asking again in {} s", e.getMessage(), RETRY.toSeconds());
        pause();
      } catch (TopicBootstrap.LayoutException e) {
        throw new UserError(e.getMessage());
      }
    }
  }

  private static void pause() {
    try {
      Thread.sleep(RETRY.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new Unavailable("interrupted while waiting for Kafka");
    }
  }
}
