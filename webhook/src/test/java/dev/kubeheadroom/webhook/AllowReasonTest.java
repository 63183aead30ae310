package dev.kubeheadroom.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.schemas.Ineligibility;
import org.junit.jupiter.api.Test;

/** The gates the webhook shares with the topology carry the topology's (explain's) names. */
class AllowReasonTest {

  @Test
  void sharedGatesAreNamedAsExplainNamesThem() {
    assertThat(AllowReason.NAMESPACE_NOT_MANAGED.wireName())
        .isEqualTo(Ineligibility.NAMESPACE_NOT_MANAGED.wireName()).isEqualTo("namespace-not-managed");
    assertThat(AllowReason.POD_OPTED_OUT.wireName()).isEqualTo("pod-opted-out");
    assertThat(AllowReason.POD_LEVEL_RESOURCES.wireName()).isEqualTo("pod-level-resources");
    assertThat(AllowReason.RESTART_CONTAINER.wireName()).isEqualTo("resize-restarts-container");
  }
}
