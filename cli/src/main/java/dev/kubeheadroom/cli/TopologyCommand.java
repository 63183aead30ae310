package dev.kubeheadroom.cli;

import dev.kubeheadroom.schemas.Topics;
import dev.kubeheadroom.topology.TopologyListener;
import dev.kubeheadroom.topology.TopologyRunner;
import dev.kubeheadroom.topology.TopologySettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code headroom topology}: the Kafka Streams stage alone (how the Helm chart deploys it). */
@Command(name = "topology", mixinStandardHelpOptions = true,
    description = "Runs the topology stage: node bookings, debounce, decisions (Kafka Streams).")
public final class TopologyCommand implements Callable<Integer> {
  @Mixin KafkaOptions kafka;
  @Mixin TopicOptions topicOptions;

  @Option(names = "--state-dir", paramLabel = "DIR",
      defaultValue = "${env:HEADROOM_STATE_DIR:-${sys:user.home}/.headroom/state}",
      description = "Kafka Streams state (RocksDB; restored from changelogs if lost). Env: HEADROOM_STATE_DIR.")
  Path stateDir;

  @Option(names = "--application-id", paramLabel = "ID",
      defaultValue = "${env:HEADROOM_APPLICATION_ID:-headroom-topology}",
      description = "Kafka Streams application id (default: ${DEFAULT-VALUE}). Env: HEADROOM_APPLICATION_ID.")
  String applicationId;

  @Override
  public Integer call() throws Exception {
    try (KafkaConnection connection = kafka.connect(System.getenv())) {
      Topics topics = topicOptions.prepare(connection);
      TopologyRunner runner = start(connection, topics, TopologyListener.NONE);
      Runtime.getRuntime().addShutdownHook(new Thread(runner::close, "headroom-topology-shutdown"));
      Throwable failure = runner.awaitStop();
      return failure == null ? 0 : 1;
    }
  }

  TopologyRunner start(KafkaConnection connection, Topics topics, TopologyListener listener) {
    TopologyRunner.Options options = new TopologyRunner.Options(applicationId,
        connection.bootstrapServers(), stateDir, connection.clientProperties());
    return TopologyRunner.start(options, TopologySettings.defaults(topics), listener);
  }

  static Duration startTimeout() {
    return Duration.ofMinutes(2);
  }
}
