package dev.kubeheadroom.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The status value: Ready's transition time and the round trip through the object. */
class ConfigStatusValueTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00.700Z");
  private static final Instant T1 = Instant.parse("2026-01-01T00:05:00Z");

  @Test
  void readyKeepsItsTransitionTimeUntilItsStatusChanges() {
    // given
    ConfigStatus accepted = ConfigStatus.next(1, null, 3, 1, null, T0);
    // when: a new accepted generation, then a refused one
    ConfigStatus stillAccepted = ConfigStatus.next(2, null, 3, 1, accepted, T1);
    ConfigStatus refused = ConfigStatus.next(3, "spec.quantum: must be > 0", 3, 1, stillAccepted, T1);
    // then
    assertThat(accepted.ready().lastTransitionTime()).isEqualTo(Instant.parse("2026-01-01T00:00:00Z"));
    assertThat(stillAccepted.ready().lastTransitionTime()).isEqualTo(accepted.ready().lastTransitionTime());
    assertThat(refused.ready()).isEqualTo(new ConfigStatus.Ready(false, ConfigStatus.REFUSED,
        "spec.quantum: must be > 0", T1));
    assertThat(refused.observedGeneration()).isEqualTo(3);
  }

  @Test
  void whatIsWrittenReadsBackEqualSoAnUnchangedStatusIsNotWrittenAgain() {
    ConfigStatus status = ConfigStatus.next(4, "spec.policy: must be Proportional", 120, 7, null, T1);
    Object stored = io.fabric8.kubernetes.client.utils.Serialization.unmarshal(
        io.fabric8.kubernetes.client.utils.Serialization.asJson(status.toMap()), java.util.Map.class);
    assertThat(ConfigStatus.parse(stored)).isEqualTo(status);
    assertThat(ConfigStatus.parse(java.util.Map.of("managedPods", 1))).isNull();
  }
}
