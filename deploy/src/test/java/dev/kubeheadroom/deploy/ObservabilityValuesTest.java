package dev.kubeheadroom.deploy;

import static dev.kubeheadroom.deploy.Charts.Rendered.container;
import static dev.kubeheadroom.deploy.Charts.Rendered.flag;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** logging.* and metrics.podSeries reach every container (one rendering: helm-java is slow). */
class ObservabilityValuesTest {
  @Test
  void loggingAndPodSeriesValuesReachEveryStage() {
    Charts.Rendered rendered = Charts.operatorSet(Map.of("logging.level", "debug",
        "logging.format", "json", "metrics.podSeries", "5000"));

    assertThat(rendered.deployments()).isNotEmpty().allSatisfy(d -> {
      assertThat(env(d)).containsEntry("HEADROOM_LOG_LEVEL", "debug")
          .containsEntry("HEADROOM_LOG_FORMAT", "json");
      assertThat(flag(d, "--metrics-pod-series")).contains("5000");
    });
  }

  private static Map<String, String> env(Deployment d) {
    return container(d).getEnv().stream().filter(e -> e.getValue() != null)
        .collect(Collectors.toMap(EnvVar::getName, EnvVar::getValue));
  }
}
