package dev.kubeheadroom.cli;

import dev.kubeheadroom.actuator.Actuator;
import dev.kubeheadroom.actuator.ActuatorSettings;
import dev.kubeheadroom.schemas.ClusterConfig;
import dev.kubeheadroom.schemas.Topics;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.util.concurrent.Callable;
import java.util.function.UnaryOperator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code headroom actuator}: decisions → rate-limited resize patches, annotations, events, outcomes. */
@Command(name = "actuator", mixinStandardHelpOptions = true,
    description = "Runs the actuator stage: applies decisions with server-side apply on pods/resize.")
public final class ActuatorCommand implements Callable<Integer> {
  @Mixin KafkaOptions kafka;
  @Mixin TopicOptions topicOptions;
  @Mixin KubeOptions kube;
  @Mixin OpsOptions ops;

  @Option(names = "--actuator-group-id", paramLabel = "ID",
      defaultValue = "${env:HEADROOM_ACTUATOR_GROUP_ID:-" + ActuatorSettings.DEFAULT_GROUP_ID + "}",
      description = "Consumer group on the decisions topic (default: ${DEFAULT-VALUE}). Env: HEADROOM_ACTUATOR_GROUP_ID.")
  String groupId;

  @Option(names = "--instance", paramLabel = "NAME", defaultValue = "${env:HEADROOM_POD_NAME:-headroom}",
      description = "This replica's name in events (default: $HEADROOM_POD_NAME).")
  String instance;

  @Override
  public Integer call() throws Exception {
    try (StageRuntime runtime = StageRuntime.start(ops)) {
      KafkaConnection connection = runtime.own(kafka.connect(System.getenv()));
      Topics topics = topicOptions.prepare(connection);
      KubernetesClient client = runtime.own(kube.client());
      start(runtime, connection, topics, client, UnaryOperator.identity());
      return runtime.runUntilStopped();
    }
  }

  Actuator start(StageRuntime runtime, KafkaConnection connection, Topics topics,
      KubernetesClient client, UnaryOperator<ClusterConfig> configView) {
    ActuatorSettings settings = new ActuatorSettings(connection.bootstrapServers(),
        connection.clientProperties(), topics, groupId, null, instance, null, configView);
    Actuator actuator = runtime.own(Actuator.start(settings, client, runtime.registry, runtime.metrics,
        Clock.systemUTC()));
    runtime.readiness.add("actuator", actuator::ready);
    runtime.watch("actuator", actuator::failure);
    return actuator;
  }
}
