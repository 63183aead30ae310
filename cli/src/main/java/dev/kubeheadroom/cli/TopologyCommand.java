package dev.kubeheadroom.cli;

import dev.kubeheadroom.pipeline.StageSpec;
import dev.kubeheadroom.schemas.Topics;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code headroom topology}: the Kafka Streams stage alone (how the Helm chart deploys it). */
@Command(name = "topology", mixinStandardHelpOptions = true,
    description = "Runs the topology stage: node bookings, debounce, decisions (Kafka Streams).")
public final class TopologyCommand extends StageCommand {
  @Mixin TopologyOptions stage;

  @Override
  List<StageSpec> stages(StageRuntime runtime, KafkaConnection connection, Topics topics) {
    return List.of(stage.spec(connection, topics, topicOptions.layout(connection)));
  }
}
