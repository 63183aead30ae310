package dev.kubeheadroom.cli;

import dev.kubeheadroom.actuator.Actuator;
import dev.kubeheadroom.actuator.ActuatorSettings;
import dev.kubeheadroom.schemas.ClusterConfig;
import dev.kubeheadroom.schemas.Topics;
import io.fabric8.kubernetes.client.Config;
import java.time.Clock;
import java.util.Map;
import java.util.function.UnaryOperator;
import picocli.CommandLine.Option;

/** The actuator stage's own options, and how it starts (for {@code actuator} and {@code run}). */
public final class ActuatorStage {
  @Option(names = "--actuator-group-id", paramLabel = "ID", defaultValue = "${env:HEADROOM_ACTUATOR_GROUP_ID}",
      description = "Consumer group on the decisions topic (default: <topic-prefix>actuator, e.g. "
          + "headroom.actuator). Env: HEADROOM_ACTUATOR_GROUP_ID.")
  String groupId;

  @Option(names = "--instance", paramLabel = "NAME", defaultValue = "${env:HEADROOM_POD_NAME:-headroom}",
      description = "This replica's name in events (default: $HEADROOM_POD_NAME).")
  String instance;

  Actuator start(StageRuntime runtime, KafkaConnection connection, Topics topics,
      Config kubeConfig, UnaryOperator<ClusterConfig> configView) {
    ActuatorSettings settings = settings(connection.bootstrapServers(), connection.clientProperties(),
        topics, configView);
    Actuator actuator = runtime.own(Actuator.start(settings, kubeConfig, runtime.registry, runtime.metrics,
        Clock.systemUTC()));
    runtime.readiness.add("actuator", actuator::ready);
    runtime.watch("actuator", actuator::failure);
    return actuator;
  }

  /** The settings from these options; without {@code --actuator-group-id}, the group follows the prefix. */
  ActuatorSettings settings(String bootstrapServers, Map<String, String> clientProperties, Topics topics,
      UnaryOperator<ClusterConfig> configView) {
    return new ActuatorSettings(bootstrapServers, clientProperties, topics, groupId, null, instance, null,
        configView);
  }
}
