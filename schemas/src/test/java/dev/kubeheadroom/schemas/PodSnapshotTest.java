package dev.kubeheadroom.schemas;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class PodSnapshotTest {
  @Test
  void newCpuLimitsReplaceOnlyTheNamedContainersLimits() {
    PodSnapshot pod = Samples.pod();
    PodSnapshot next = pod.withCpuLimits(Map.of("app", 3000L, "proxy", 400L));

    assertThat(next.containers()).extracting(ContainerSnapshot::name, ContainerSnapshot::cpuLimitMilli)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("init", 0L),
            org.assertj.core.groups.Tuple.tuple("proxy", 400L),
            org.assertj.core.groups.Tuple.tuple("app", 3000L));
    assertThat(next.containers().get(2).cpuRequestMilli()).isEqualTo(500);
    assertThat(next.generation()).isEqualTo(pod.generation());
    assertThat(pod.withCpuLimits(Map.of())).isSameAs(pod);
    assertThat(pod.withCpuLimits(null)).isSameAs(pod);
  }

  @Test
  void aResizeAlsoBumpsTheGenerationAsTheApiServerDoes() {
    PodSnapshot pod = Samples.pod();
    PodSnapshot resized = pod.resized(Map.of("app", 3000L));

    assertThat(resized.generation()).isEqualTo(pod.generation() + 1);
    assertThat(resized.containers().get(2).cpuLimitMilli()).isEqualTo(3000);
    assertThat(resized.withCpuLimits(Map.of("app", 1500L)).containers())
        .isEqualTo(pod.containers());
    assertThat(resized.resourceVersion()).isEqualTo(pod.resourceVersion());
  }

  /**
   * sameBooking compares in place what it used to compare by copying both pods without their
   * resourceVersion and epoch: on random pairs that differ in any subset of fields, both agree.
   */
  @Test
  void sameBookingIsEqualityApartFromResourceVersionAndEpoch() {
    Random random = new Random(7);
    int same = 0;
    for (int i = 0; i < 20_000; i++) {
      PodSnapshot a = random(random);
      PodSnapshot b = random.nextBoolean() ? a : mutate(a, random);
      boolean byCopies = stripped(a).equals(stripped(b));
      assertThat(a.sameBooking(b)).as("%s vs %s", a, b).isEqualTo(byCopies);
      same += byCopies ? 1 : 0;
    }
    assertThat(same).isBetween(5_000, 15_000); // both answers were exercised
    assertThat(Samples.pod().sameBooking(null)).isFalse();
    // A new component must be added to sameBooking (or be one it ignores, like resourceVersion).
    assertThat(PodSnapshot.class.getRecordComponents()).hasSize(18);
  }

  private static PodSnapshot stripped(PodSnapshot p) {
    return new PodSnapshot(p.uid(), p.namespace(), p.name(), p.node(), p.phase(), p.qosClass(), null,
        p.generation(), p.mode(), p.maxCpuMilli(), p.maxCpuInvalid(), p.vpaControlsLimits(), p.owners(),
        p.containers(), p.resize(), p.podLevelResources(), 0, p.gang());
  }

  private static String pick(Random r, String... values) {
    return values[r.nextInt(values.length)];
  }

  private static List<ContainerSnapshot> containers(Random r) {
    return List.of(new ContainerSnapshot("app", ContainerKind.APP, r.nextInt(2) * 100, r.nextInt(2) * 200,
        r.nextBoolean(), r.nextBoolean()));
  }

  private static List<OwnerRef> owners(Random r) {
    return r.nextBoolean() ? List.of() : List.of(new OwnerRef("ReplicaSet", pick(r, "rs1", "rs2"), "u", true));
  }

  private static PodSnapshot random(Random r) {
    return new PodSnapshot(pick(r, "u1", "u2"), pick(r, "a", "b"), pick(r, "p", "q"), pick(r, "n1", "n2"),
        pick(r, "Running", "Pending"), pick(r, "Burstable", "Guaranteed"), pick(r, "1", "2", null),
        r.nextInt(2), pick(r, null, "unmanaged"), r.nextInt(2) * 500, pick(r, null, "bad"), r.nextBoolean(),
        owners(r), containers(r), ResizeStatus.values()[r.nextInt(ResizeStatus.values().length)],
        r.nextBoolean(), r.nextInt(2), pick(r, null, "g1"));
  }

  /** {@code p} with one to three of its fields drawn again (often to the same value). */
  private static PodSnapshot mutate(PodSnapshot p, Random r) {
    PodSnapshot q = p;
    for (int n = 1 + r.nextInt(3); n > 0; n--) {
      PodSnapshot o = random(r);
      int f = r.nextInt(18);
      q = new PodSnapshot(f == 0 ? o.uid() : q.uid(), f == 1 ? o.namespace() : q.namespace(),
          f == 2 ? o.name() : q.name(), f == 3 ? o.node() : q.node(), f == 4 ? o.phase() : q.phase(),
          f == 5 ? o.qosClass() : q.qosClass(), f == 6 ? o.resourceVersion() : q.resourceVersion(),
          f == 7 ? o.generation() : q.generation(), f == 8 ? o.mode() : q.mode(),
          f == 9 ? o.maxCpuMilli() : q.maxCpuMilli(), f == 10 ? o.maxCpuInvalid() : q.maxCpuInvalid(),
          f == 11 ? o.vpaControlsLimits() : q.vpaControlsLimits(), f == 12 ? o.owners() : q.owners(),
          f == 13 ? o.containers() : q.containers(), f == 14 ? o.resize() : q.resize(),
          f == 15 ? o.podLevelResources() : q.podLevelResources(), f == 16 ? o.epoch() : q.epoch(),
          f == 17 ? o.gang() : q.gang());
    }
    return q;
  }
}
