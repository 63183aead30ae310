package dev.kubeheadroom.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import org.junit.jupiter.api.Test;

class LeaseEpochTest {
  private static Lease lease(String created, Integer transitions) {
    return new LeaseBuilder().withNewMetadata().withName("headroom-ingest").withCreationTimestamp(created)
        .endMetadata().withNewSpec().withHolderIdentity("a").withLeaseTransitions(transitions).endSpec().build();
  }

  @Test
  void eachChangeOfHolderRaisesTheEpoch() {
    long first = LeaseEpoch.of(lease("2026-01-01T00:00:00Z", 0));
    long second = LeaseEpoch.of(lease("2026-01-01T00:00:00Z", 1));
    assertThat(first).isEqualTo(1_767_225_600_000_001L);
    assertThat(second).isEqualTo(first + 1);
  }

  @Test
  void aRecreatedLeaseWhoseCountRestartsStillRaisesTheEpoch() {
    long old = LeaseEpoch.of(lease("2026-01-01T00:00:00Z", 41));
    long recreated = LeaseEpoch.of(lease("2026-01-01T00:00:01Z", 0));
    assertThat(recreated).isGreaterThan(old);
  }

  @Test
  void aLeaseWithoutCountOrTimestampStillGivesAnEpochAboveZero() {
    // the API server accepts a Lease without spec.leaseTransitions; 0 would mean "unfenced"
    assertThat(LeaseEpoch.of(lease(null, null))).isEqualTo(1);
    assertThat(LeaseEpoch.of(new Lease())).isEqualTo(1);
    assertThat(LeaseEpoch.of(lease("not a time", 3))).isEqualTo(4);
  }
}
