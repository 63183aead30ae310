package dev.kubeheadroom.cli;

import dev.kubeheadroom.projection.GoDuration;
import dev.kubeheadroom.schemas.TopicBootstrap;
import dev.kubeheadroom.schemas.TopicLayout;
import dev.kubeheadroom.schemas.Topics;
import java.time.Duration;
import org.apache.kafka.clients.admin.Admin;
import picocli.CommandLine.Option;

/** The topic names and, when Headroom creates them, their layout. */
public final class TopicOptions {
  static final Duration SETUP_TIMEOUT = Duration.ofSeconds(60);

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
    Duration keep;
    try {
      keep = GoDuration.parse(retention);
    } catch (IllegalArgumentException e) {
      throw new UserError("--topic-retention: " + e.getMessage());
    }
    try {
      return new TopicLayout(partitions, kafka.isEmbedded() ? 1 : replicationFactor, keep, minInsyncReplicas);
    } catch (IllegalArgumentException e) {
      throw new UserError("--topic-*: " + e.getMessage());
    }
  }

  /** Creates missing topics (when asked) and checks the partition layout every stage relies on. */
  Topics prepare(KafkaConnection kafka) {
    Topics topics = topics();
    TopicLayout layout = layout(kafka);
    try (Admin admin = kafka.admin()) {
      if (create) {
        TopicBootstrap.ensure(admin, topics, layout, SETUP_TIMEOUT);
      } else {
        TopicBootstrap.verify(admin, topics, SETUP_TIMEOUT);
      }
    } catch (TopicBootstrap.LayoutException e) {
      throw new UserError(e.getMessage());
    }
    return topics;
  }
}
