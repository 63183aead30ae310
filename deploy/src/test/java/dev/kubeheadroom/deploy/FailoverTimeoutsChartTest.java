package dev.kubeheadroom.deploy;

import static dev.kubeheadroom.deploy.Charts.Rendered.flag;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.deploy.Charts.Rendered;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code topology.sessionTimeout} and {@code topology.transactionTimeout} reach the topology (and
 * {@code run}) as {@code --session-timeout} and {@code --transaction-timeout} when set; unset, no
 * flag is passed and the topology's own defaults hold (one default each, in {@code FailoverTimeouts}).
 */
class FailoverTimeoutsChartTest {

  @Test
  void unsetPassesNoFlag() {
    Rendered rendered = Charts.operator();

    assertThat(rendered.deployments()).allSatisfy(d -> {
      assertThat(flag(d, "--session-timeout")).isEmpty();
      assertThat(flag(d, "--transaction-timeout")).isEmpty();
    });
  }

  @Test
  void setReachesTheTopologyOnly() {
    Rendered rendered = Charts.operatorSet(Map.of("topology.sessionTimeout", "6s", "topology.transactionTimeout", "2s"));

    assertThat(flag(rendered.deployment("topology"), "--session-timeout")).contains("6s");
    assertThat(flag(rendered.deployment("topology"), "--transaction-timeout")).contains("2s");
    for (String stage : new String[] {"ingest", "actuator", "webhook"}) {
      assertThat(flag(rendered.deployment(stage), "--session-timeout")).as(stage).isEmpty();
      assertThat(flag(rendered.deployment(stage), "--transaction-timeout")).as(stage).isEmpty();
    }
  }

  @Test
  void allInOnePassesThem() {
    Rendered rendered = Charts.operatorSet(Map.of("topology.sessionTimeout", "6s", "topology.transactionTimeout", "2s"),
        "all-in-one.yaml");

    assertThat(flag(rendered.deployment("all-in-one"), "--session-timeout")).contains("6s");
    assertThat(flag(rendered.deployment("all-in-one"), "--transaction-timeout")).contains("2s");
  }
}
