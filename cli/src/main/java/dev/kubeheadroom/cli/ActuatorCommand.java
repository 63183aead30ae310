package dev.kubeheadroom.cli;

import dev.kubeheadroom.schemas.Topics;
import java.util.concurrent.Callable;
import java.util.function.UnaryOperator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code headroom actuator}: decisions → rate-limited resize patches, annotations, events, outcomes. */
@Command(name = "actuator", mixinStandardHelpOptions = true,
    description = "Runs the actuator stage: applies decisions with server-side apply on pods/resize.")
public final class ActuatorCommand implements Callable<Integer> {
  @Mixin KafkaOptions kafka;
  @Mixin TopicOptions topicOptions;
  @Mixin KubeOptions kube;
  @Mixin OpsOptions ops;

  @Mixin ActuatorStage stage;

  @Override
  public Integer call() throws Exception {
    try (StageRuntime runtime = StageRuntime.start(ops)) {
      KafkaConnection connection = runtime.own(kafka.connect(System.getenv()));
      Topics topics = topicOptions.prepare(connection);
      stage.start(runtime, connection, topics, kube.config(), UnaryOperator.identity());
      return runtime.runUntilStopped();
    }
  }
}
