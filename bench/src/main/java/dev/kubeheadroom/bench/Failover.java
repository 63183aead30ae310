package dev.kubeheadroom.bench;

import dev.kubeheadroom.kubedouble.ApiServerDouble;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.stream.Collectors;
import org.apache.kafka.common.utils.Utils;

/**
 * Topology failover: two instances of the application, pods created at a steady rate on random
 * nodes (each makes its node due), one instance killed; per partition the killed instance owned,
 * the time from the kill until the survivor evaluates one of that partition's nodes. The floor
 * is the churn → evaluation latency before the kill (debounce 2 s plus jitter, the tick, the
 * commit) plus the wait for the partition's next churn.
 */
record Failover(ApiServerDouble api, DesignPointCluster cluster, TopologyInstances topology, int partitions,
    Duration warm, DesignPointBench.Report out) {
  static final Duration MAX_OUTAGE = Duration.ofMinutes(4);

  void round(int round, int standbys, double churnPerSecond, boolean crash) throws Exception {
    String victim = "a" + round;
    String survivor = "b" + round;
    if (!topology.names().equals(Set.of(victim, survivor))) {
      topology.close(); // a fresh pair with this many standbys (state restores from the changelogs)
      topology.start(victim, standbys);
      topology.start(survivor, standbys);
      topology.awaitRunning(Duration.ofMinutes(5));
    }
    ConcurrentLinkedQueue<long[]> churn = new ConcurrentLinkedQueue<>(); // {node index, nanos}
    Thread load = churn(round, churnPerSecond, churn);
    try {
      long warmFrom = System.nanoTime();
      Thread.sleep(warm.toMillis()); // standbys catch up, ownership shows in the timeline
      Map<Integer, String> owner = new HashMap<>();
      topology.since(warmFrom + warm.toNanos() / 2).forEach(e -> owner.put(partition(e.node()), e.instance()));
      List<Integer> lost = owner.entrySet().stream().filter(e -> e.getValue().equals(victim)).map(Map.Entry::getKey)
          .sorted().toList();
      long baseline = medianLatency(churn, warmFrom, warmFrom + warm.toNanos() / 2);
      long killed = System.nanoTime();
      if (crash) {
        topology.crash(victim);
      } else {
        topology.stop(victim);
      }
      long closed = System.nanoTime();
      Map<Integer, Long> resumed = new TreeMap<>();
      while (resumed.size() < lost.size() && System.nanoTime() - killed < MAX_OUTAGE.toNanos()) {
        Thread.sleep(200);
        for (TopologyInstances.Evaluation e : topology.since(killed)) {
          int p = partition(e.node());
          if (e.instance().equals(survivor) && lost.contains(p)) {
            resumed.putIfAbsent(p, e.nanos() - killed);
          }
        }
      }
      List<Long> times = new ArrayList<>(resumed.values());
      Collections.sort(times);
      out.line("failover round %d (%s, %d standby replicas, %.1f pods/s churn): %s owned partitions %s of %d; "
              + "close took %.1f s; decisions resumed for %d of them: first %.1f s, median %.1f s, last %.1f s "
              + "after the kill; churn -> evaluation before the kill: median %.1f s (%d pods created)",
          round, crash ? "crash: no leave" : "clean leave", standbys, churnPerSecond, victim, lost, partitions,
          (closed - killed) / 1e9, times.size(), seconds(times, 0), seconds(times, times.size() / 2),
          seconds(times, times.size() - 1), baseline / 1e9, churn.size());
    } finally {
      load.interrupt();
      load.join();
    }
  }

  private static double seconds(List<Long> sorted, int i) {
    return sorted.isEmpty() ? Double.NaN : sorted.get(i) / 1e9;
  }

  int partition(String node) {
    return Utils.toPositive(Utils.murmur2(node.getBytes(StandardCharsets.UTF_8))) % partitions;
  }

  /** Creates a running pod on a random node every 1/{@code rate} s until interrupted. */
  private Thread churn(int round, double rate, ConcurrentLinkedQueue<long[]> created) {
    Thread t = new Thread(() -> {
      Random random = new Random(round);
      long period = (long) (1e9 / rate);
      long next = System.nanoTime();
      for (int k = 0; !Thread.currentThread().isInterrupted(); k++) {
        int n = random.nextInt(cluster.nodes.size());
        String node = cluster.nodes.get(n);
        int ns = 1 + 4 * random.nextInt(DesignPointCluster.NAMESPACES / 4 - 1) + random.nextInt(3); // managed
        DesignPointCluster.SeededPod pod = new DesignPointCluster.SeededPod(DesignPointCluster.namespace(ns),
            "churn" + round + "-" + k, node, 100, 0, true);
        try {
          api.seedClient().pods().inNamespace(pod.namespace()).resource(DesignPointCluster.pod(pod)).create();
          created.add(new long[] {n, System.nanoTime()});
        } catch (RuntimeException e) {
          if (Thread.currentThread().isInterrupted()) {
            return;
          }
          out.line("churn create failed: %s", e.getMessage());
        }
        next += period;
        long wait = next - System.nanoTime();
        if (wait > 0) {
          try {
            Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
          } catch (InterruptedException e) {
            return;
          }
        }
      }
    }, "churn");
    t.setDaemon(true);
    t.start();
    return t;
  }

  /** Median time from a pod's creation to its node's next evaluation, for pods created in [from, to). */
  private long medianLatency(ConcurrentLinkedQueue<long[]> created, long from, long to) {
    Map<String, List<Long>> evaluations = topology.since(from).stream().collect(Collectors.groupingBy(
        TopologyInstances.Evaluation::node, Collectors.mapping(TopologyInstances.Evaluation::nanos, Collectors.toList())));
    List<Long> latencies = new ArrayList<>();
    for (long[] c : created) {
      if (c[1] < from || c[1] >= to) {
        continue;
      }
      evaluations.getOrDefault(cluster.nodes.get((int) c[0]), List.of()).stream().filter(t -> t > c[1]).min(Long::compare)
          .ifPresent(t -> latencies.add(t - c[1]));
    }
    Collections.sort(latencies);
    return latencies.isEmpty() ? -1 : latencies.get(latencies.size() / 2);
  }
}
