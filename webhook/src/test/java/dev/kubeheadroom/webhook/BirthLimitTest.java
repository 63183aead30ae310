package dev.kubeheadroom.webhook;

import static dev.kubeheadroom.webhook.Fixtures.TEAM_A;
import static dev.kubeheadroom.webhook.Fixtures.config;
import static dev.kubeheadroom.webhook.Fixtures.enforcing;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.schemas.Ineligibility;
import dev.kubeheadroom.schemas.NamespaceInfo;
import dev.kubeheadroom.webhook.BirthDecision.Seed;
import dev.kubeheadroom.webhook.BirthDecision.SeededLimit;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The pure rules of {@link BirthLimit}, one knob at a time (docs/design/headroom-design.txt §6.5, docs/design/policy.md step 4). */
class BirthLimitTest {

  private static Pod pod(Map<String, String> annotations, String... cpuRequestsAndLimits) {
    PodBuilder b = new PodBuilder().withNewMetadata().withName("p").withNamespace("team-a")
        .withAnnotations(annotations).endMetadata().withNewSpec().endSpec();
    for (int i = 0; i < cpuRequestsAndLimits.length; i += 2) {
      Map<String, Quantity> requests = new LinkedHashMap<>();
      requests.put("cpu", new Quantity(cpuRequestsAndLimits[i]));
      Map<String, Quantity> limits = new LinkedHashMap<>();
      if (cpuRequestsAndLimits[i + 1] != null) {
        limits.put("cpu", new Quantity(cpuRequestsAndLimits[i + 1]));
      }
      b.editSpec().addToContainers(new ContainerBuilder().withName("c" + i / 2)
          .withNewResources().withRequests(requests).withLimits(limits).endResources().build()).endSpec();
    }
    return b.build();
  }

  private static long limit(BirthDecision d, int index) {
    assertThat(d).isInstanceOf(Seed.class);
    return ((Seed) d).limits().get(index).limitMilli();
  }

  @Test
  void seededLimitIsQuantizedToTheNearestQuantum() {
    // 333m × 2 = 666m → 670m with a 10m quantum
    assertThat(limit(BirthLimit.decide(pod(Map.of(), "333m", null), TEAM_A, enforcing()), 0)).isEqualTo(670);
    // 333m × 2 = 666m → 700m with a 100m quantum; 666m exactly with quantization off
    assertThat(limit(BirthLimit.decide(pod(Map.of(), "333m", null), TEAM_A, config(true, 2, 10, 100)), 0))
        .isEqualTo(700);
    assertThat(limit(BirthLimit.decide(pod(Map.of(), "333m", null), TEAM_A, config(true, 2, 10, 0)), 0))
        .isEqualTo(666);
  }

  @Test
  void quantizationStepsBackUnderTheCap() {
    // 333m × 2 = 666m capped at 665m → 670m would cross the cap → 660m
    assertThat(limit(BirthLimit.decide(pod(Map.of("kube-headroom.dev/max-cpu", "665m"), "333m", null),
        TEAM_A, enforcing()), 0)).isEqualTo(660);
  }

  @Test
  void multiplierThatRoundsBackToTheRequestSeedsNothing() {
    // 1000m × 1.001 = 1001m → 1000m after quantization: equal to the request, so no limit
    BirthDecision d = BirthLimit.decide(pod(Map.of(), "1", null), TEAM_A, config(true, 1.001, 10, 10));
    assertThat(d).isEqualTo(BirthDecision.Unchanged.because(AllowReason.NOTHING_TO_SEED));
  }

  @Test
  void offGridRequestIsQuantizedByThePolicysOwnStep() {
    // 1005m × 1.001 = 1006m → 1010m: the policy's step 4 (docs/design/policy.md), the same as a target at
    // slack 0 gets; a limit above the request, so it is seeded
    BirthDecision d = BirthLimit.decide(pod(Map.of(), "1005m", null), TEAM_A, config(true, 1.001, 10, 10));
    assertThat(limit(d, 0)).isEqualTo(dev.kubeheadroom.policy.SlackPolicy.quantize(1_006, 1_005, Long.MAX_VALUE, 10))
        .isEqualTo(1_010);
  }

  @Test
  void maxMultiplierZeroMeansNoCapOnTheInitialMultiplier() {
    assertThat(limit(BirthLimit.decide(pod(Map.of(), "500m", null), TEAM_A, config(true, 20, 0, 10)), 0))
        .isEqualTo(10_000);
  }

  @Test
  void limitsAlreadySetOnOtherContainersUsePartOfThePodCap() {
    // cap 2 CPUs, c0 already limited at 1500m: c1 (250m) may get at most 500m of the 2 CPUs
    BirthDecision d = BirthLimit.decide(pod(Map.of("kube-headroom.dev/max-cpu", "2"), "1", "1500m", "250m", null),
        TEAM_A, config(true, 4, 10, 10));
    assertThat(((Seed) d).limits()).containsExactly(new SeededLimit("c1", false, 250, 500));
  }

  @Test
  void podCapBelowTheRequestsNeverPushesALimitUnderItsRequest() {
    BirthDecision d = BirthLimit.decide(pod(Map.of("kube-headroom.dev/max-cpu", "100m"), "500m", null),
        TEAM_A, enforcing());
    assertThat(d).isEqualTo(BirthDecision.Unchanged.because(AllowReason.NOTHING_TO_SEED));
  }

  // LimitRanger (plugin/pkg/admission/limitranger/admission.go) validates the pod after mutating
  // webhooks: a seeded limit over a LimitRange cap would make the pod's creation fail (403).

  private static NamespaceInfo limitRanged(long containerMax, long podMax, long ratioMilli) {
    return new NamespaceInfo("team-a", TEAM_A.labels(), containerMax, podMax, ratioMilli);
  }

  @Test
  void aLimitToRequestRatioCapsEachSeededContainer() {
    // 500m × 2 = 1000m, but maxLimitRequestRatio 1.5 allows 750m
    BirthDecision d = BirthLimit.decide(pod(Map.of(), "500m", null), limitRanged(0, 0, 1_500), enforcing());
    assertThat(limit(d, 0)).isEqualTo(750);
  }

  @Test
  void aPodMaxCapsTheSeededLimitsTogetherWithTheLimitsAlreadySet() {
    // Pod max 2 CPUs; c0 already limited at 1200m: c1 (300m) and c2 (100m) share the 800m left
    BirthDecision d = BirthLimit.decide(pod(Map.of(), "1", "1200m", "300m", null, "100m", null),
        limitRanged(0, 2_000, 0), config(true, 4, 10, 10));
    assertThat(((Seed) d).limits()).containsExactly(
        new SeededLimit("c1", false, 300, 600), new SeededLimit("c2", false, 100, 200));
  }

  @Test
  void aPodRatioCountsTheLimitsAlreadySet() {
    // ratio 2 over the pod's 1500m requests is 3000m; c0's 2500m limit leaves c1 500m (its own
    // ratio would allow 1000m)
    BirthDecision d = BirthLimit.decide(pod(Map.of(), "1", "2500m", "500m", null),
        limitRanged(0, 0, 2_000), config(true, 4, 10, 10));
    assertThat(d).isEqualTo(BirthDecision.Unchanged.because(AllowReason.NOTHING_TO_SEED));
    BirthDecision roomier = BirthLimit.decide(pod(Map.of(), "1", "2000m", "500m", null),
        limitRanged(0, 0, 2_000), config(true, 4, 10, 10));
    assertThat(((Seed) roomier).limits()).containsExactly(new SeededLimit("c1", false, 500, 1_000));
  }

  @Test
  void theContainerMaxStillCaps() {
    BirthDecision d = BirthLimit.decide(pod(Map.of(), "500m", null), limitRanged(800, 0, 0), enforcing());
    assertThat(limit(d, 0)).isEqualTo(800);
  }

  @Test
  void quantitiesNearAndPastTheLongRangeGiveADecisionNeverAnException() {
    // the API server stores such quantities (apimachinery caps what int64 cannot hold)
    BirthDecision huge = BirthLimit.decide(pod(Map.of("kube-headroom.dev/max-cpu", "1e30"),
        "9000000000000000", null, "9000000000000000", null, "1e30", "1e30"), limitRanged(0, Long.MAX_VALUE, 1_500),
        enforcing());
    // requests summing past the 64-bit millicore range: the topology's gate, judged at CREATE too
    assertThat(huge).isEqualTo(BirthDecision.Unchanged.because(Ineligibility.CPU_OUT_OF_RANGE));
    BirthDecision small = BirthLimit.decide(pod(Map.of(), "500m", null, "1", "9223372036854775807m"),
        limitRanged(0, 0, 0), enforcing());
    assertThat(limit(small, 0)).isEqualTo(1_000);
  }

  @Test
  void zeroCpuRequestIsNotSeeded() {
    // a zero request counts as none: BestEffort, which the topology never manages either
    BirthDecision d = BirthLimit.decide(pod(Map.of(), "0", null), TEAM_A, enforcing());
    assertThat(d).isEqualTo(BirthDecision.Unchanged.because(Ineligibility.NOT_BURSTABLE));
  }

  @Test
  void emptyLimitsObjectIsReplacedWithOneHoldingTheCpuLimit() {
    Seed seed = (Seed) BirthLimit.decide(pod(Map.of(), "250m", null), TEAM_A, enforcing());
    assertThat(seed.patch()).hasSize(1);
    assertThat(seed.patch().get(0).path()).isEqualTo("/spec/containers/0/resources/limits");
    assertThat(seed.patch().get(0).value().toString()).isEqualTo("{\"cpu\":\"500m\"}");
  }

  @Test
  void windowsPodIsAdmittedUnchanged() {
    Pod pod = new PodBuilder(pod(Map.of(), "500m", null)).editSpec().withNewOs("windows").endSpec().build();
    assertThat(BirthLimit.decide(pod, TEAM_A, enforcing()))
        .isEqualTo(BirthDecision.Unchanged.because(Ineligibility.NODE_NOT_RESIZABLE));
  }

  @Test
  void jsonPointerSegmentsAreEscaped() {
    assertThat(PatchOp.pointer("metadata", "annotations", "kube-headroom.dev/max-cpu"))
        .isEqualTo("/metadata/annotations/kube-headroom.dev~1max-cpu");
    assertThat(PatchOp.pointer("a~b", "c/d~1", 3)).isEqualTo("/a~0b/c~1d~01/3");
  }
}
