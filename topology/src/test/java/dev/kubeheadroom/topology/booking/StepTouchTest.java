package dev.kubeheadroom.topology.booking;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.schemas.ClusterConfig;
import dev.kubeheadroom.schemas.ContainerKind;
import dev.kubeheadroom.schemas.ContainerSnapshot;
import dev.kubeheadroom.schemas.HeadroomKeys;
import dev.kubeheadroom.schemas.NamespaceInfo;
import dev.kubeheadroom.schemas.NodeEvent;
import dev.kubeheadroom.schemas.NodeRemoved;
import dev.kubeheadroom.schemas.NodeSnapshot;
import dev.kubeheadroom.schemas.NodeSync;
import dev.kubeheadroom.schemas.OutcomeResult;
import dev.kubeheadroom.schemas.PodRemoved;
import dev.kubeheadroom.schemas.PodSnapshot;
import dev.kubeheadroom.schemas.ResizeOutcome;
import dev.kubeheadroom.schemas.ResizeStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * A replay's pods store takes a node's booking table whole ({@link WholeNodePods}) where a live
 * store is written per touched pod: the two hold the same entries only if every step names, in
 * {@code touchedPods}, each pod whose entry it changed (and {@code nodeTouched} when the node
 * changed). Random event sequences (pods added, resized, made terminal, removed, synced away,
 * refused, applied; the node resized and removed) with decisions between them hold every step
 * to that: the booking before, with the touched pods written per pod, is the booking after.
 */
class StepTouchTest {
  private static final String NODE = "n1";
  private static final NamespaceInfo MANAGED =
      new NamespaceInfo("ns", Map.of(HeadroomKeys.MODE_LABEL, HeadroomKeys.MANAGED), 0);

  @Test
  void everyChangedEntryIsTouched() {
    Random random = new Random(14);
    Instant now = Instant.parse("2026-03-01T00:00:00Z");
    int steps = 0;
    int changed = 0;
    for (int run = 0; run < 40; run++) {
      NodeBooking booking = NodeBooking.empty(NODE);
      ClusterConfig config = ClusterConfig.DEFAULTS.withDryRun(random.nextBoolean());
      for (int i = 0; i < 300; i++) {
        now = now.plus(Duration.ofMillis(random.nextInt(20_000)));
        Step step = random.nextInt(4) == 0
            ? NodeDecider.decide(booking, config, ns -> MANAGED, now)
            : booking.apply(event(random, booking, now), now);
        assertWrittenPerPodIsTheBooking(booking, step);
        changed += step.touchedPods().isEmpty() ? 0 : 1;
        steps++;
        booking = step.booking();
      }
    }
    assertThat(steps).isEqualTo(12_000);
    assertThat(changed).isGreaterThan(4_000); // the sequences do change entries, often
  }

  /** What a per-pod store holds after the step equals the step's booking. */
  private static void assertWrittenPerPodIsTheBooking(NodeBooking before, Step step) {
    TreeMap<String, PodEntry> stored = new TreeMap<>(before.pods());
    for (String uid : step.touchedPods()) {
      PodEntry entry = step.booking().pods().get(uid);
      if (entry == null) {
        stored.remove(uid);
      } else {
        stored.put(uid, entry);
      }
    }
    assertThat(stored).isEqualTo(step.booking().pods());
    stored.forEach((uid, entry) -> assertThat(step.booking().pods().get(uid)).isSameAs(entry));
    if (step.booking().snapshot() != before.snapshot()) {
      assertThat(step.nodeTouched()).isTrue();
    }
  }

  private static NodeEvent event(Random random, NodeBooking booking, Instant now) {
    String uid = "uid-" + random.nextInt(12);
    PodEntry entry = booking.pods().get(uid);
    return switch (random.nextInt(12)) {
      case 0, 1, 2, 3 -> pod(random, uid);
      case 4 -> entry == null ? pod(random, uid) : resized(random, entry.pod());
      case 5 -> new PodRemoved(uid, "ns", "p-" + uid, NODE);
      case 6 -> new NodeSnapshot(NODE, 1_000 * (2 + random.nextInt(3)), "linux", false, Map.of());
      case 7 -> random.nextInt(4) == 0 ? new NodeRemoved(NODE) : pod(random, uid);
      case 8 -> new NodeSync(NODE, syncKept(random, booking));
      default -> new ResizeOutcome(NODE, uid, "ns", "p-" + uid,
          OutcomeResult.values()[random.nextInt(OutcomeResult.values().length)],
          entry != null && entry.pending() != null && random.nextBoolean()
              ? entry.pending().targetMilli() : random.nextInt(2_000),
          random.nextBoolean() ? now : now.minusSeconds(random.nextInt(600)), "");
    };
  }

  private static List<String> syncKept(Random random, NodeBooking booking) {
    List<String> kept = new ArrayList<>();
    for (String uid : booking.pods().keySet()) {
      if (random.nextInt(4) != 0) {
        kept.add(uid);
      }
    }
    return kept;
  }

  private static PodSnapshot pod(Random random, String uid) {
    String phase = random.nextInt(10) == 0 ? "Succeeded" : "Running";
    ResizeStatus resize = random.nextInt(8) == 0 ? ResizeStatus.INFEASIBLE : ResizeStatus.NONE;
    List<ContainerSnapshot> containers = new ArrayList<>();
    for (int c = 0; c <= random.nextInt(2); c++) {
      containers.add(new ContainerSnapshot("c" + c, ContainerKind.APP, 50 + random.nextInt(400),
          random.nextInt(3) == 0 ? 0 : 100 + random.nextInt(900), false, false));
    }
    return new PodSnapshot(uid, "ns", "p-" + uid, NODE, phase, "Burstable", "v" + random.nextInt(5), 1,
        random.nextInt(6) == 0 ? "off" : null, random.nextInt(5) == 0 ? 800 : 0, null, false, List.of(),
        containers, resize);
  }

  /** As a simulated actuator leaves the pod: one container at a new limit, generation bumped. */
  private static PodSnapshot resized(Random random, PodSnapshot pod) {
    return pod.resized(Map.of(pod.containers().get(0).name(), (long) (100 + random.nextInt(1_500))));
  }
}
