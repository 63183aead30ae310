package dev.kubeheadroom.cli;

import dev.kubeheadroom.pipeline.TopologySpec;
import dev.kubeheadroom.schemas.TopicLayout;
import dev.kubeheadroom.schemas.Topics;
import dev.kubeheadroom.topology.FailoverTimeouts;
import dev.kubeheadroom.topology.InternalTopics;
import dev.kubeheadroom.topology.TopologyRunner;
import dev.kubeheadroom.topology.TopologySettings;
import java.nio.file.Path;
import java.time.Duration;
import picocli.CommandLine.Option;

/** The topology stage's own options (for {@code topology} and {@code run}). */
public final class TopologyOptions {
  @Option(names = "--state-dir", paramLabel = "DIR",
      defaultValue = "${env:HEADROOM_STATE_DIR:-${sys:user.home}/.headroom/state}",
      description = "Kafka Streams state (RocksDB; restored from changelogs if lost). Env: HEADROOM_STATE_DIR.")
  Path stateDir;

  @Option(names = "--application-id", paramLabel = "ID", defaultValue = "${env:HEADROOM_APPLICATION_ID}",
      description = "Kafka Streams application id: its consumer group and changelog prefix (default: "
          + "<topic-prefix>topology, e.g. headroom.topology). Env: HEADROOM_APPLICATION_ID.")
  String applicationId;

  @Option(names = "--num-standby-replicas", paramLabel = "N", defaultValue = "0",
      description = "Kafka Streams num.standby.replicas: warm copies of each task's state on other "
          + "instances, for a fast failover (default: ${DEFAULT-VALUE}).")
  int standbyReplicas;

  @Option(names = "--group-instance-id", paramLabel = "ID", defaultValue = "${env:HEADROOM_GROUP_INSTANCE_ID}",
      description = "Static membership: this instance's stable group.instance.id (the chart passes "
          + "the pod's name), so a restarted container takes its old member's place at once. "
          + "Default: none (dynamic membership). Env: HEADROOM_GROUP_INSTANCE_ID.")
  String groupInstanceId;

  @Option(names = "--application-server", paramLabel = "HOST:PORT", defaultValue = "${env:HEADROOM_APPLICATION_SERVER}",
      description = "Where this instance serves /bookings to the other topology instances (Kafka Streams' "
          + "application.server; the chart passes the pod IP and the metrics port), so any instance answers "
          + "explain --live for any pod. Default: none (an instance answers only for the nodes it holds). "
          + "Env: HEADROOM_APPLICATION_SERVER.")
  String applicationServer;

  @Option(names = "--session-timeout", paramLabel = "DURATION",
      description = "The topology group's session.timeout.ms: how long a killed instance's partitions wait "
          + "before they move. Within the broker's group.min/max.session.timeout.ms (6s-30m by default). "
          + "Default: 10s.")
  String sessionTimeout;

  @Option(names = "--transaction-timeout", paramLabel = "DURATION",
      description = "The topology producers' transaction.timeout.ms: a killed instance's open transaction "
          + "holds back every read_committed reader of its partitions until the coordinator aborts it, this "
          + "long after it began (plus up to the broker's transaction.abort.timed.out.transaction.cleanup."
          + "interval.ms). At least 100ms, at most the broker's transaction.max.timeout.ms. Default: 5s.")
  String transactionTimeout;

  /** The given id, or {@code <prefix>topology}: releases with different topic prefixes never share one. */
  static String applicationId(String given, Topics topics) {
    return given == null || given.isBlank() ? topics.topologyApplicationId() : given;
  }

  /** The topology stage from these options; its changelogs are replicated as {@code layout} says. */
  TopologySpec spec(KafkaConnection connection, Topics topics, TopicLayout layout) {
    TopologyRunner.Options options;
    try {
      options = new TopologyRunner.Options(applicationId(applicationId, topics),
          InternalTopics.replicatedAs(layout, connection.client()), stateDir, standbyReplicas,
          groupInstanceId == null ? "" : groupInstanceId, failoverTimeouts(), applicationServer);
    } catch (IllegalArgumentException e) {
      throw new UserError(e.getMessage());
    }
    return new TopologySpec(options, TopologySettings.defaults(topics));
  }

  /** {@code --session-timeout} and {@code --transaction-timeout}, each the topology's default when absent. */
  FailoverTimeouts failoverTimeouts() {
    Duration session = DurationFlag.orElse("--session-timeout", sessionTimeout,
        FailoverTimeouts.DEFAULT_SESSION_TIMEOUT);
    Duration transaction = DurationFlag.orElse("--transaction-timeout", transactionTimeout,
        FailoverTimeouts.DEFAULT_TRANSACTION_TIMEOUT);
    try {
      return new FailoverTimeouts(session, transaction);
    } catch (IllegalArgumentException e) {
      throw new UserError(e.getMessage());
    }
  }
}
