package dev.kubeheadroom.topology.booking;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kubeheadroom.schemas.ClusterConfig;
import dev.kubeheadroom.schemas.ContainerKind;
import dev.kubeheadroom.schemas.ContainerSnapshot;
import dev.kubeheadroom.schemas.HeadroomKeys;
import dev.kubeheadroom.schemas.NamespaceInfo;
import dev.kubeheadroom.schemas.NodeEvent;
import dev.kubeheadroom.schemas.NodeSnapshot;
import dev.kubeheadroom.schemas.OutcomeResult;
import dev.kubeheadroom.schemas.PodRemoved;
import dev.kubeheadroom.schemas.PodSnapshot;
import dev.kubeheadroom.schemas.ResizeOutcome;
import dev.kubeheadroom.schemas.ResizeStatus;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link ViewMemo}: a node decided with the views of its last decision reused decides exactly as
 * one whose views are rebuilt every time, on random event sequences that cross what the views
 * depend on: pod changes, terminal pods, removals, a node becoming unresizable or changing size,
 * refusals and their backoff expiring, pending targets confirmed or expiring, a namespace
 * relabelled and dry-run flipped (both with a globals bump, as the global tables do).
 */
class ViewMemoTest {
  private static final String NODE = "n1";
  private static final Instant T0 = Instant.parse("2026-03-01T00:00:00Z");
  private static final OutcomeResult[] OUTCOMES = OutcomeResult.values();

  @Test
  void memoizedDecisionsEqualRebuiltOnRandomSequences() {
    int decisions = 0;
    int reused = 0;
    for (long seed = 1; seed <= 40; seed++) {
      Random rnd = new Random(seed);
      ViewMemo memo = new ViewMemo();
      long version = 0;
      ClusterConfig config = ClusterConfig.DEFAULTS.withDryRun(false);
      Map<String, NamespaceInfo> namespaces = new HashMap<>();
      namespaces.put("ns-a", ns("ns-a", HeadroomKeys.MANAGED));
      namespaces.put("ns-b", ns("ns-b", HeadroomKeys.MANAGED));
      NodeBooking memoized = NodeBooking.empty(NODE);
      NodeBooking rebuilt = NodeBooking.empty(NODE);
      Instant now = T0;
      for (int step = 0; step < 200; step++) {
        now = now.plusMillis(rnd.nextInt(4) == 0 ? rnd.nextInt(120_000) : rnd.nextInt(3_000));
        int what = rnd.nextInt(100);
        if (what < 45) {
          NodeEvent event = event(rnd, rebuilt, now);
          memoized = memoized.apply(event, now).booking();
          rebuilt = rebuilt.apply(event, now).booking();
        } else if (what < 48) {
          String name = rnd.nextBoolean() ? "ns-a" : "ns-b";
          namespaces.put(name, ns(name, rnd.nextInt(3) == 0 ? HeadroomKeys.UNMANAGED : HeadroomKeys.MANAGED));
          version++;
        } else if (what < 50) {
          config = config.withDryRun(!config.dryRun());
          version++;
        } else {
          memo.sync(version);
          Map<String, NodeDecider.PodView> before = memo.last(memoized, config);
          Step withMemo = NodeDecider.decide(memoized, config, namespaces::get, Map.of(), now, memo).step();
          Step without = NodeDecider.decide(rebuilt, config, namespaces::get, Map.of(), now).step();
          assertEquals(without, withMemo, "seed " + seed + ", step " + step);
          Map<String, NodeDecider.PodView> after = memo.last(withMemo.booking(), config);
          if (before != null && after != null) {
            reused += (int) after.entrySet().stream().filter(e -> before.get(e.getKey()) == e.getValue()).count();
          }
          memoized = withMemo.booking();
          rebuilt = without.booking();
          decisions++;
        }
      }
    }
    assertTrue(decisions > 3_000, "decisions " + decisions);
    assertTrue(reused > 500, "views reused " + reused); // the memo did its work
  }

  @Test
  void aViewIsReusedOnlyWhileNothingItReadsChanged() {
    ViewMemo memo = new ViewMemo();
    memo.sync(0);
    ClusterConfig config = ClusterConfig.DEFAULTS.withDryRun(false);
    Map<String, NamespaceInfo> namespaces = Map.of("ns-a", ns("ns-a", HeadroomKeys.MANAGED));
    NodeBooking booking = NodeBooking.empty(NODE)
        .apply(new NodeSnapshot(NODE, 8000, "linux", false, Map.of(), 0), T0).booking()
        .apply(pod("p1", "ns-a", 500, 1000, "Running", ResizeStatus.NONE), T0).booking()
        .apply(pod("p2", "ns-a", 500, 0, "Running", ResizeStatus.NONE), T0).booking();
    NodeDecider.decide(booking, config, namespaces::get, Map.of(), T0, memo);
    NodeDecider.PodView first = memo.last(booking, config).get("uid-p2");
    NodeDecider.decide(booking, config, namespaces::get, Map.of(), T0.plusSeconds(1), memo);
    assertSame(first, memo.last(booking, config).get("uid-p2"));

    memo.sync(1); // a namespace or the config changed
    NodeDecider.decide(booking, config, namespaces::get, Map.of(), T0.plusSeconds(2), memo);
    assertNotSame(first, memo.last(booking, config).get("uid-p2"));
  }

  private static NodeEvent event(Random rnd, NodeBooking booking, Instant now) {
    String uid = "uid-p" + rnd.nextInt(8);
    PodEntry entry = booking.pods().get(uid);
    int kind = rnd.nextInt(100);
    if (kind < 8) {
      return new NodeSnapshot(NODE, rnd.nextBoolean() ? 8000 : 16000, "linux", rnd.nextInt(6) == 0, Map.of(), 0);
    }
    if (kind < 16) {
      return new PodRemoved(uid, "ns-a", uid.substring(4), NODE);
    }
    if (kind < 30 && entry != null) {
      long target = entry.pending() != null && rnd.nextBoolean()
          ? entry.pending().targetMilli() : 500 + rnd.nextInt(4000);
      return new ResizeOutcome(NODE, uid, entry.pod().namespace(), entry.pod().name(),
          OUTCOMES[rnd.nextInt(OUTCOMES.length)], target, now, "");
    }
    if (kind < 50 && entry != null && entry.pending() != null) {
      // the kubelet applied what was emitted: a snapshot that confirms the pending target
      return entry.pod().resized(entry.pending().containers());
    }
    String ns = rnd.nextInt(4) == 0 ? "ns-b" : "ns-a";
    long request = rnd.nextInt(10) == 0 ? 0 : 100 + rnd.nextInt(2000);
    long limit = rnd.nextInt(3) == 0 ? 0 : request + rnd.nextInt(3000);
    String phase = rnd.nextInt(12) == 0 ? "Succeeded" : "Running";
    ResizeStatus resize = rnd.nextInt(8) == 0 ? ResizeStatus.INFEASIBLE : ResizeStatus.NONE;
    return pod(uid.substring(4), entry == null ? ns : entry.pod().namespace(), request, limit, phase, resize);
  }

  private static PodSnapshot pod(String name, String ns, long requestMilli, long limitMilli, String phase,
      ResizeStatus resize) {
    return new PodSnapshot("uid-" + name, ns, name, NODE, phase, "Burstable", "1", 1, null, 0,
        null, false, List.of(),
        List.of(new ContainerSnapshot("app", ContainerKind.APP, requestMilli, limitMilli, false, false),
            new ContainerSnapshot("side", ContainerKind.APP, requestMilli / 2, limitMilli, false, false)),
        resize);
  }

  private static NamespaceInfo ns(String name, String mode) {
    // ns-b's LimitRange caps a container at 2.5 CPUs: the views' user cap reads it
    return new NamespaceInfo(name, Map.of(HeadroomKeys.MODE_LABEL, mode), "ns-b".equals(name) ? 2500 : 0);
  }
}
