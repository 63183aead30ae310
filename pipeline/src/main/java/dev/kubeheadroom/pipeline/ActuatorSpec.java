package dev.kubeheadroom.pipeline;

import dev.kubeheadroom.actuator.Actuator;
import dev.kubeheadroom.actuator.ActuatorSettings;
import io.fabric8.kubernetes.client.Config;
import java.util.List;
import java.util.Objects;

/**
 * The actuator stage: decisions → resize patches → outcomes. It builds its own Kubernetes client
 * from {@code kubeConfig} on each start (fabric8's retries off).
 */
public record ActuatorSpec(ActuatorSettings settings, Config kubeConfig) implements StageSpec {
  public static final String NAME = "actuator";

  public ActuatorSpec {
    Objects.requireNonNull(settings, "settings");
    Objects.requireNonNull(kubeConfig, "kubeConfig");
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Stage start(StageContext context) {
    Actuator actuator = Actuator.start(settings, kubeConfig, context.registry(), context.metrics(),
        context.clock());
    return new RunningStage(NAME, actuator::ready, actuator::failure, List.of(actuator));
  }
}
