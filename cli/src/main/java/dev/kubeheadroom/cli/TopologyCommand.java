package dev.kubeheadroom.cli;

import dev.kubeheadroom.ops.MeterBinders;
import dev.kubeheadroom.schemas.Topics;
import dev.kubeheadroom.topology.TopologyRunner;
import dev.kubeheadroom.topology.TopologySettings;
import java.nio.file.Path;
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
  @Mixin OpsOptions ops;

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
    try (StageRuntime runtime = StageRuntime.start(ops)) {
      KafkaConnection connection = runtime.own(kafka.connect(System.getenv()));
      Topics topics = topicOptions.prepare(connection);
      start(runtime, connection, topics, TopologySettings.defaults(topics));
      return runtime.runUntilStopped();
    }
  }

  /** Starts the topology inside {@code runtime} (also used by {@code run}). */
  TopologyRunner start(StageRuntime runtime, KafkaConnection connection, Topics topics,
      TopologySettings settings) {
    TopologyRunner.Options options = new TopologyRunner.Options(applicationId,
        connection.bootstrapServers(), stateDir, connection.clientProperties());
    TopologyRunner runner = runtime.own(
        TopologyRunner.start(options, settings, new MetricsListener(runtime.metrics)));
    runtime.own(MeterBinders.bindKafkaStreams(runtime.registry, runner.streams()));
    runtime.readiness.add("topology", runner::isRunning);
    runtime.watch("topology", runner::failure);
    return runner;
  }
}
