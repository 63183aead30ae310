package dev.kubeheadroom.cli;

import dev.kubeheadroom.pipeline.StageSpec;
import dev.kubeheadroom.schemas.Topics;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code headroom actuator}: decisions → rate-limited resize patches, annotations, events, outcomes. */
@Command(name = "actuator", mixinStandardHelpOptions = true,
    description = "Runs the actuator stage: applies decisions with server-side apply on pods/resize.")
public final class ActuatorCommand extends StageCommand {
  @Mixin KubeOptions kube;
  @Mixin ActuatorOptions stage;

  @Override
  List<StageSpec> stages(StageRuntime runtime, KafkaConnection connection, Topics topics) {
    return List.of(stage.spec(connection, topics, kube.config()));
  }

  @Override
  KubernetesClient metricsAuthClient() {
    return kube.client();
  }
}
