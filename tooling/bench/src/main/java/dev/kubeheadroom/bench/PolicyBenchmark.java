package dev.kubeheadroom.bench;

import dev.kubeheadroom.policy.ContainerInput;
import dev.kubeheadroom.policy.Decision;
import dev.kubeheadroom.policy.NodeResult;
import dev.kubeheadroom.policy.PodInput;
import dev.kubeheadroom.policy.PodPlanner;
import dev.kubeheadroom.policy.PolicyConfig;
import dev.kubeheadroom.policy.SlackPolicy;
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
import org.openjdk.jmh.infra.Blackhole;

/**
 * The policy's cost for one full node: 110 pods (the kubelet's default max-pods), about three in
 * four managed, with 1–3 containers each and seeded random requests, so every run sees the same
 * node. {@code computeNode} is one reconcile's policy step; {@code planPods} takes its decisions
 * down to container limits.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class PolicyBenchmark {

  static final int PODS = 110;
  static final long ALLOCATABLE_MILLI = 96_000; // a 96-core node
  static final long SEED = 20_260_101L;

  private List<PodInput> pods;
  private final Map<String, PodInput> podsByKey = new HashMap<>();
  private final Map<String, List<ContainerInput>> containersByKey = new HashMap<>();
  private List<Decision> decisions;
  private final PolicyConfig config = PolicyConfig.DEFAULTS;

  @Setup
  public void buildNode() {
    Random random = new Random(SEED);
    pods = new ArrayList<>(PODS);
    for (int i = 0; i < PODS; i++) {
      boolean managed = random.nextInt(4) != 0;
      int containerCount = 1 + random.nextInt(3);
      List<ContainerInput> containers = new ArrayList<>(containerCount);
      for (int c = 0; c < containerCount; c++) {
        long request = 10 + random.nextInt(490); // 10m – 500m per container
        long limit = random.nextInt(3) == 0 ? 0 : request * (1 + random.nextInt(4));
        containers.add(new ContainerInput("c" + c, request, limit, random.nextInt(5) == 0));
      }
      String key = "ns-" + (i % 7) + "/pod-" + i;
      PodInput pod =
          new PodInput(
              key,
              ContainerInput.podRequestMilli(containers),
              ContainerInput.podCurrentLimitMilli(containers),
              managed,
              random.nextInt(10) == 0 ? 2_000 : 0);
      pods.add(pod);
      podsByKey.put(key, pod);
      containersByKey.put(key, containers);
    }
    decisions = SlackPolicy.computeNode(ALLOCATABLE_MILLI, pods, config).decisions();
  }

  @Benchmark
  public NodeResult computeNode() {
    return SlackPolicy.computeNode(ALLOCATABLE_MILLI, pods, config);
  }

  @Benchmark
  public void planPods(Blackhole blackhole) {
    for (Decision decision : decisions) {
      String key = decision.key();
      blackhole.consume(
          PodPlanner.plan(decision, podsByKey.get(key), containersByKey.get(key), config));
    }
  }
}
