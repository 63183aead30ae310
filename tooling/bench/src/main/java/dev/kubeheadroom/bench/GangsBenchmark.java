package dev.kubeheadroom.bench;

import dev.kubeheadroom.policy.GangRatio;
import dev.kubeheadroom.policy.UniformCeiling;
import dev.kubeheadroom.schemas.CeilingRatio;
import dev.kubeheadroom.schemas.ClusterConfig;
import dev.kubeheadroom.schemas.ContainerKind;
import dev.kubeheadroom.schemas.ContainerSnapshot;
import dev.kubeheadroom.schemas.HeadroomKeys;
import dev.kubeheadroom.schemas.NamespaceInfo;
import dev.kubeheadroom.schemas.NodeSnapshot;
import dev.kubeheadroom.schemas.PodSnapshot;
import dev.kubeheadroom.schemas.ResizeStatus;
import dev.kubeheadroom.topology.booking.NodeBooking;
import dev.kubeheadroom.topology.booking.NodeDecider;
import dev.kubeheadroom.topology.booking.PodEntry;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * What uniform ceilings for gangs (design §11.6) add. Per decision of a node (once per node per
 * debounce): {@link PolicyBenchmark}'s 110-pod node decided by {@code NodeDecider} with no pod in a
 * gang and with every pod in one of ten gangs that all have a ceiling from elsewhere (the
 * difference is what the gang pass adds to a decision). Per gang report (the
 * gang processor, once per changed part): the reduction of a 1,000-member gang, its lowest ratio,
 * and every member's target under it.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class GangsBenchmark {
  private static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");
  private final ClusterConfig config = ClusterConfig.DEFAULTS.withDryRun(false);
  private final Function<String, NamespaceInfo> namespaces =
      n -> new NamespaceInfo(n, Map.of(HeadroomKeys.MODE_LABEL, HeadroomKeys.MANAGED), 0);
  private NodeBooking plain;
  private NodeBooking ganged;
  private Map<String, CeilingRatio> ceilings;
  private List<GangRatio> bigGang;

  @Setup
  public void build() {
    Random random = new Random(PolicyBenchmark.SEED);
    TreeMap<String, PodEntry> noGangs = new TreeMap<>();
    TreeMap<String, PodEntry> inGangs = new TreeMap<>();
    for (int i = 0; i < PolicyBenchmark.PODS; i++) {
      long request = 10 + random.nextInt(1490);
      long limit = random.nextInt(3) == 0 ? 0 : request * 2;
      PodSnapshot pod = new PodSnapshot(String.format("uid-%04d", i), "ns-" + (i % 7), "pod-" + i, "n1",
          "Running", PodSnapshot.QOS_BURSTABLE, "1", 1, null, 0, null, false, List.of(),
          List.of(new ContainerSnapshot("app", ContainerKind.APP, request, limit, false, false)), ResizeStatus.NONE);
      noGangs.put(pod.uid(), new PodEntry(pod, null, null, false));
      inGangs.put(pod.uid(), new PodEntry(pod.withGang("g" + (i % 10)), null, null, false));
    }
    NodeSnapshot node = new NodeSnapshot("n1", PolicyBenchmark.ALLOCATABLE_MILLI, "linux", false, Map.of());
    plain = new NodeBooking("n1", node, noGangs);
    ganged = new NodeBooking("n1", node, inGangs);
    ceilings = new HashMap<>();
    for (int i = 0; i < 7; i++) {
      for (int g = 0; g < 10; g++) {
        ceilings.put("ns-" + i + "/g" + g, new CeilingRatio(1500, 1000));
      }
    }
    bigGang = new ArrayList<>();
    for (int i = 0; i < 1000; i++) {
      long request = 100 + random.nextInt(1900);
      bigGang.add(new GangRatio(request + random.nextInt(20_000), request));
    }
  }

  @Benchmark
  public Object decideNoGangs() {
    return NodeDecider.decide(plain, config, namespaces, Map.of(), NOW);
  }

  @Benchmark
  public Object decideAllInGangs() {
    return NodeDecider.decide(ganged, config, namespaces, ceilings, NOW);
  }

  @Benchmark
  public long[] reduceGangOf1000() {
    return UniformCeiling.targets(bigGang, 10);
  }
}
