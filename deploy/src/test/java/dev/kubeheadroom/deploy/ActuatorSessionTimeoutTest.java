package dev.kubeheadroom.deploy;

import static dev.kubeheadroom.deploy.Charts.Rendered.flag;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.deploy.Charts.Rendered;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code actuator.sessionTimeout} reaches the actuator (and {@code run}) as
 * {@code --actuator-session-timeout} when set; unset, no flag is passed and the actuator's own
 * default holds (one default, {@code ActuatorSettings.DEFAULT_SESSION_TIMEOUT}).
 */
class ActuatorSessionTimeoutTest {

  @Test
  void unsetPassesNoFlag() {
    Rendered rendered = Charts.operator();

    assertThat(rendered.deployments())
        .allSatisfy(d -> assertThat(flag(d, "--actuator-session-timeout")).isEmpty());
  }

  @Test
  void setReachesTheActuatorOnly() {
    Rendered rendered = Charts.operatorSet(Map.of("actuator.sessionTimeout", "8s"));

    assertThat(flag(rendered.deployment("actuator"), "--actuator-session-timeout")).contains("8s");
    for (String stage : new String[] {"ingest", "topology", "webhook"}) {
      assertThat(flag(rendered.deployment(stage), "--actuator-session-timeout")).as(stage).isEmpty();
    }
  }

  @Test
  void allInOnePassesIt() {
    Rendered rendered = Charts.operatorSet(Map.of("actuator.sessionTimeout", "8s"), "all-in-one.yaml");

    assertThat(flag(rendered.deployment("all-in-one"), "--actuator-session-timeout")).contains("8s");
  }
}
