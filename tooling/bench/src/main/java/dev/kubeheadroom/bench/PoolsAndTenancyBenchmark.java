package dev.kubeheadroom.bench;

import dev.kubeheadroom.policy.HierarchicalPolicy;
import dev.kubeheadroom.policy.NodeResult;
import dev.kubeheadroom.policy.PodInput;
import dev.kubeheadroom.policy.PolicyConfig;
import dev.kubeheadroom.policy.SlackPolicy;
import dev.kubeheadroom.policy.Tenant;
import dev.kubeheadroom.schemas.ClusterConfig;
import dev.kubeheadroom.schemas.LabelSelector;
import dev.kubeheadroom.schemas.NodePool;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * What node pools and hierarchical tenancy (design §11.1, §11.4) add. Per event (every dirty node
 * event, in BookingProcessor): the pool lookup for the node's debounce, with no pools (the check
 * that there are none) and with four pools on a node of twelve labels matched by the last. Per
 * decision: {@link PolicyBenchmark}'s 110-pod node computed flat and by tenant (seven namespaces).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class PoolsAndTenancyBenchmark {
  private final PolicyConfig config = PolicyConfig.DEFAULTS;
  private final ClusterConfig noPools = ClusterConfig.DEFAULTS;
  private ClusterConfig fourPools;
  private Map<String, String> nodeLabels;
  private List<PodInput> pods;
  private List<Tenant> tenants;

  @Setup
  public void build() {
    Random random = new Random(PolicyBenchmark.SEED);
    pods = new ArrayList<>();
    tenants = new ArrayList<>();
    for (int i = 0; i < PolicyBenchmark.PODS; i++) {
      boolean managed = random.nextInt(4) != 0;
      long request = 10 + random.nextInt(1490);
      pods.add(new PodInput("pod-" + i, request, random.nextInt(3) == 0 ? 0 : request * 2, managed, 0));
      tenants.add(Tenant.of("ns-" + (i % 7)));
    }
    nodeLabels = new HashMap<>();
    for (int i = 0; i < 11; i++) {
      nodeLabels.put("example.com/label-" + i, "value-" + i);
    }
    nodeLabels.put("pool", "batch");
    List<NodePool> pools = new ArrayList<>();
    for (String name : List.of("gpu", "latency", "edge", "batch")) {
      pools.add(NodePool.named(name, new LabelSelector(Map.of("pool", name), List.of()))
          .withMaxMultiplier(name.equals("batch") ? 0.0 : 2.0));
    }
    fourPools = ClusterConfig.DEFAULTS.withPools(pools);
  }

  @Benchmark
  public Object perEventNoPools() {
    return noPools.pools().isEmpty() ? null : noPools.poolFor(nodeLabels);
  }

  @Benchmark
  public Object perEventFourPools() {
    NodePool pool = fourPools.poolFor(nodeLabels).orElse(null);
    return fourPools.forPool(pool);
  }

  @Benchmark
  public NodeResult decideFlat() {
    return SlackPolicy.computeNode(PolicyBenchmark.ALLOCATABLE_MILLI, pods, config);
  }

  @Benchmark
  public NodeResult decideByTenant() {
    return HierarchicalPolicy.computeNode(PolicyBenchmark.ALLOCATABLE_MILLI, pods, tenants, config);
  }
}
