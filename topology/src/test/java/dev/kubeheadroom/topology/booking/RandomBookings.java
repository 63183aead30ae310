package dev.kubeheadroom.topology.booking;

import dev.kubeheadroom.schemas.CeilingRatio;
import dev.kubeheadroom.schemas.ClusterConfig;
import dev.kubeheadroom.schemas.ContainerKind;
import dev.kubeheadroom.schemas.ContainerSnapshot;
import dev.kubeheadroom.schemas.HeadroomKeys;
import dev.kubeheadroom.schemas.LabelSelector;
import dev.kubeheadroom.schemas.NamespaceInfo;
import dev.kubeheadroom.schemas.NodePool;
import dev.kubeheadroom.schemas.NodeSnapshot;
import dev.kubeheadroom.schemas.OwnerRef;
import dev.kubeheadroom.schemas.PodSnapshot;
import dev.kubeheadroom.schemas.ResizeStatus;
import dev.kubeheadroom.schemas.Tenancy;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

/**
 * Random bookings, configs, namespaces and gang ceilings over every input a decision reads: each
 * eligibility gate, pending targets (either mode, young and expired, naming known and unknown
 * containers), backoffs, init containers and sidecars, LimitRange caps, pools, tenancy, gangs by
 * annotation and by owner, and quantities from 0 to the 64-bit range. Seeded: a failure repeats.
 */
final class RandomBookings {
  static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");
  private static final String[] NAMESPACES = {"a", "b", "c", "kube-system"};

  private final Random random;

  RandomBookings(long seed) {
    random = new Random(seed);
  }

  NodeBooking booking() {
    String node = "n" + random.nextInt(3);
    NodeSnapshot snapshot = new NodeSnapshot(node, quantity(), pick("linux", "linux", "linux", "windows"),
        random.nextInt(10) == 0, random.nextBoolean() ? Map.of("pool", pick("x", "y")) : Map.of());
    TreeMap<String, PodEntry> pods = new TreeMap<>();
    int n = random.nextInt(10) == 0 ? 8 + random.nextInt(16) : random.nextInt(7); // some outgrow the spare rows
    for (int i = 0; i < n; i++) {
      PodSnapshot pod = pod("u" + random.nextInt(1000), node);
      pods.put(pod.uid(), entry(pod));
    }
    return new NodeBooking(node, snapshot, pods);
  }

  private PodEntry entry(PodSnapshot pod) {
    Pending pending = null;
    if (random.nextInt(3) == 0) {
      Map<String, Long> limits = new HashMap<>();
      for (ContainerSnapshot c : pod.containers()) {
        if (random.nextBoolean()) {
          limits.put(c.name(), quantity());
        }
      }
      if (random.nextInt(5) == 0) {
        limits.put("gone", quantity()); // a container the pod no longer has
      }
      pending = new Pending(quantity(), limits, NOW.minusSeconds(random.nextInt(400)), random.nextBoolean());
    }
    Instant backoffSince = random.nextInt(4) == 0 ? NOW.minusSeconds(random.nextInt(3000)) : null;
    return new PodEntry(pod, pending, backoffSince, random.nextBoolean(), random.nextInt(7));
  }

  private PodSnapshot pod(String uid, String node) {
    List<ContainerSnapshot> containers = new ArrayList<>();
    int n = 1 + random.nextInt(3);
    for (int i = 0; i < n; i++) {
      ContainerKind kind = random.nextInt(4) == 0 ? pick(ContainerKind.INIT, ContainerKind.SIDECAR) : ContainerKind.APP;
      containers.add(new ContainerSnapshot("c" + i, kind, random.nextInt(4) == 0 ? 0 : quantity(),
          random.nextInt(3) == 0 ? 0 : quantity(), random.nextInt(4) == 0, random.nextInt(15) == 0));
    }
    List<OwnerRef> owners = random.nextBoolean() ? List.of()
        : List.of(new OwnerRef(pick("Job", "ReplicaSet"), pick("j1", "j2"), "o1", random.nextInt(4) != 0));
    PodSnapshot pod = new PodSnapshot(uid, pick(NAMESPACES), "pod-" + uid, node,
        pick("Running", "Running", "Running", "Pending", "Succeeded", "Failed"),
        pick("Burstable", "Burstable", "Burstable", "Guaranteed", "BestEffort", ""), "1", random.nextInt(3),
        pick(null, null, null, HeadroomKeys.UNMANAGED, HeadroomKeys.MANAGED),
        random.nextInt(3) == 0 ? quantity() : 0, null, random.nextInt(12) == 0, owners, containers,
        ResizeStatus.NONE, random.nextInt(12) == 0);
    return random.nextInt(3) == 0 ? pod.withGang(pick("g1", "g2", " ", "")) : pod;
  }

  /** Mostly everyday millicores, sometimes 0, sometimes near or at the 64-bit range. */
  long quantity() {
    return switch (random.nextInt(12)) {
      case 0 -> 0;
      case 1 -> Long.MAX_VALUE - random.nextInt(3);
      case 2 -> Long.MAX_VALUE / (2 + random.nextInt(5));
      default -> 1 + random.nextInt(random.nextBoolean() ? 4_000 : 64_000);
    };
  }

  ClusterConfig config() {
    List<NodePool> pools = random.nextBoolean() ? List.of()
        : List.of(new NodePool("px", new LabelSelector(Map.of("pool", "x"), List.of()), (long) random.nextInt(2000),
            random.nextInt(3) * 5.0, random.nextInt(30), random.nextInt(30), null, null));
    LabelSelector selector = random.nextBoolean() ? LabelSelector.NONE
        : new LabelSelector(Map.of("team", "t"), List.of());
    return new ClusterConfig(random.nextInt(5), ClusterConfig.POLICY_PROPORTIONAL, random.nextBoolean(),
        random.nextInt(3000), random.nextInt(4) == 0 ? 0 : random.nextInt(200) / 10.0,
        pick(0L, 1L, 10L, 100L), random.nextInt(40), random.nextInt(40), Duration.ofSeconds(2),
        Duration.ofSeconds(10), Duration.ofSeconds(1 + random.nextInt(600)), ClusterConfig.RateLimits.DEFAULTS,
        ClusterConfig.Webhook.DEFAULTS, selector, List.of("kube-system"), pools,
        random.nextBoolean() ? Tenancy.NONE : Tenancy.NAMESPACES,
        random.nextBoolean() ? List.of() : List.of("Job"));
  }

  /** Namespaces as the store would answer: some unknown, labelled every way, with and without caps. */
  Map<String, NamespaceInfo> namespaces() {
    Map<String, NamespaceInfo> out = new HashMap<>();
    for (String name : NAMESPACES) {
      if (random.nextInt(8) == 0) {
        continue; // not known yet
      }
      Map<String, String> labels = switch (random.nextInt(6)) {
        case 0 -> Map.of(HeadroomKeys.MODE_LABEL, HeadroomKeys.UNMANAGED);
        case 1 -> Map.of("team", "t");
        case 2 -> Map.of();
        default -> Map.of(HeadroomKeys.MODE_LABEL, HeadroomKeys.MANAGED);
      };
      boolean capped = random.nextBoolean();
      out.put(name, new NamespaceInfo(name, labels, capped ? pick(0L, quantity()) : 0,
          capped ? pick(0L, quantity()) : 0, capped ? pick(0L, 1000L + random.nextInt(4000)) : 0,
          random.nextBoolean() ? 0 : 0.5 + random.nextInt(4)));
    }
    return out;
  }

  /** The lowest ratio each gang's members elsewhere reported, for some gangs. */
  Map<String, CeilingRatio> ceilings() {
    Map<String, CeilingRatio> out = new HashMap<>();
    for (String gang : new String[] {"a/g1", "b/g2", "c/Job/j1", "a/Job/j2"}) {
      if (random.nextInt(3) == 0) {
        long request = 1 + random.nextInt(4000);
        out.put(gang, new CeilingRatio(request + random.nextInt(20_000), request));
      }
    }
    return out;
  }

  @SafeVarargs
  private <T> T pick(T... values) {
    return values[random.nextInt(values.length)];
  }
}
