package dev.kubeheadroom.deploy;

import static dev.kubeheadroom.deploy.Charts.Rendered.flag;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.deploy.Charts.Rendered;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code actuator.maxDecisionAge} reaches the actuator (and {@code run}) as
 * {@code --max-decision-age} when set; unset, no flag is passed and the actuator's own default
 * holds (one default, in {@code ActuatorSettings}).
 */
class MaxDecisionAgeTest {

  @Test
  void unsetPassesNoFlag() {
    Rendered rendered = Charts.operator();

    assertThat(rendered.deployments()).allSatisfy(d -> assertThat(flag(d, "--max-decision-age")).isEmpty());
  }

  @Test
  void setReachesTheActuatorOnly() {
    Rendered rendered = Charts.operatorSet(Map.of("actuator.maxDecisionAge", "2m"));

    assertThat(flag(rendered.deployment("actuator"), "--max-decision-age")).contains("2m");
    for (String stage : new String[] {"ingest", "topology", "webhook"}) {
      assertThat(flag(rendered.deployment(stage), "--max-decision-age")).as(stage).isEmpty();
    }
  }

  @Test
  void allInOnePassesIt() {
    Rendered rendered = Charts.operatorSet(Map.of("actuator.maxDecisionAge", "90s"), "all-in-one.yaml");

    assertThat(flag(rendered.deployment("all-in-one"), "--max-decision-age")).contains("90s");
  }
}
