package dev.kubeheadroom.cli;

import dev.kubeheadroom.ops.MeterBinders;
import dev.kubeheadroom.schemas.Topics;
import dev.kubeheadroom.topology.TopologyRunner;
import dev.kubeheadroom.topology.TopologySettings;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** The topology stage's own options, and how it starts (for {@code topology} and {@code run}). */
public final class TopologyStage {
  @Option(names = "--state-dir", paramLabel = "DIR",
      defaultValue = "${env:HEADROOM_STATE_DIR:-${sys:user.home}/.headroom/state}",
      description = "Kafka Streams state (RocksDB; restored from changelogs if lost). Env: HEADROOM_STATE_DIR.")
  Path stateDir;

  @Option(names = "--application-id", paramLabel = "ID",
      defaultValue = "${env:HEADROOM_APPLICATION_ID:-headroom-topology}",
      description = "Kafka Streams application id (default: ${DEFAULT-VALUE}). Env: HEADROOM_APPLICATION_ID.")
  String applicationId;

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
