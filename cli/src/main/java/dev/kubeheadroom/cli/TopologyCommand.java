package dev.kubeheadroom.cli;

import dev.kubeheadroom.schemas.Topics;
import dev.kubeheadroom.topology.TopologySettings;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code headroom topology}: the Kafka Streams stage alone (how the Helm chart deploys it). */
@Command(name = "topology", mixinStandardHelpOptions = true,
    description = "Runs the topology stage: node bookings, debounce, decisions (Kafka Streams).")
public final class TopologyCommand implements Callable<Integer> {
  @Mixin KafkaOptions kafka;
  @Mixin TopicOptions topicOptions;
  @Mixin OpsOptions ops;

  @Mixin TopologyStage stage;

  @Override
  public Integer call() throws Exception {
    try (StageRuntime runtime = StageRuntime.start(ops)) {
      KafkaConnection connection = runtime.own(kafka.connect(System.getenv()));
      Topics topics = topicOptions.prepare(connection);
      stage.start(runtime, connection, topics, TopologySettings.defaults(topics));
      return runtime.runUntilStopped();
    }
  }
}
