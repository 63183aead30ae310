package dev.kubeheadroom.bench;

import dev.kubeheadroom.kubedouble.ApiServerDouble;
import dev.kubeheadroom.schemas.KafkaClientSettings;
import dev.kubeheadroom.schemas.Topics;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
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
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Utils;

/**
 * Topology failover: two instances of the application, pods created at a steady rate on random
 * nodes (each makes its node due), one instance lost ({@link Mode}); per partition it owned, the
 * time from the loss until (a) the survivor evaluates one of that partition's nodes and (b) a
 * decision the survivor made for one of them is visible to a read_committed reader of the
 * decisions topic, as the actuator reads it ({@link DecisionWatch}). Between the two sits the
 * killed instance's open transaction, if it wrote to that decisions partition: read_committed
 * readers stop at it until the coordinator aborts it. The floor is the churn → evaluation latency
 * before the kill (debounce 2 s plus jitter, the tick, the commit) plus the wait for the
 * partition's next churn.
 */
record Failover(ApiServerDouble api, DesignPointCluster cluster, TopologyInstances topology, KafkaClientSettings kafka,
    Topics topics, int partitions, Duration warm, Path logs, boolean killInsideTransaction, DesignPointBench.Report out) {
  static final Duration MAX_OUTAGE = Duration.ofMinutes(4);
  /** Stops of the victim to look for an open transaction before it is killed whatever it holds. */
  static final int MAX_TRIES = 400;

  /** How the instance is lost. */
  enum Mode {
    /** Each instance a child JVM; the victim gets SIGKILL: no leave, its transaction left open. */
    KILL,
    /** In-JVM close without leaving the group: no leave, but its transaction aborted at once. */
    CRASH,
    /** In-JVM close that leaves the group: an immediate rebalance. */
    STOP;

    static Mode of(String name) {
      return valueOf(name.trim().toUpperCase(java.util.Locale.ROOT));
    }
  }

  void round(int round, int standbys, double churnPerSecond, Mode mode) throws Exception {
    String tag = mode.name().toLowerCase(java.util.Locale.ROOT) + round;
    String victim = "a-" + tag;
    String survivor = "b-" + tag;
    topology.stopAll(); // a fresh pair with this many standbys (state restores from the changelogs)
    for (String name : List.of(victim, survivor)) {
      if (mode == Mode.KILL) {
        topology.fork(name, standbys, logs.resolve(name + ".log"));
      } else {
        topology.start(name, standbys);
      }
    }
    topology.awaitRunning(Duration.ofMinutes(5));
    ConcurrentLinkedQueue<long[]> churn = new ConcurrentLinkedQueue<>(); // {node index, nanos}
    Thread load = churn(round, churnPerSecond, churn);
    try (DecisionWatch watch = new DecisionWatch(kafka, topics.decisions()); Admin admin = Admin.create(kafka.clientConfig())) {
      long warmFrom = System.nanoTime();
      Thread.sleep(warm.toMillis()); // standbys catch up, ownership shows in the timeline
      Map<Integer, String> owner = new HashMap<>();
      topology.since(warmFrom + warm.toNanos() / 2).forEach(e -> owner.put(partition(e.node()), e.instance()));
      List<Integer> lost = owner.entrySet().stream().filter(e -> e.getValue().equals(victim)).map(Map.Entry::getKey)
          .sorted().toList();
      List<TopicPartition> written = lostPartitions(admin, lost);
      long baseline = medianLatency(churn, warmFrom, warmFrom + warm.toNanos() / 2);
      long killedMs = System.currentTimeMillis();
      long killed = System.nanoTime();
      int tries = 0;
      if (mode == Mode.KILL && killInsideTransaction) {
        // The worst case, which a node's death hits whenever it comes while a transaction is
        // open: stop the victim, and kill it if it has one open on its partitions, else let it
        // run a little and try again. Stopped, it is already dead to Kafka: the kill counts from the stop.
        Random pause = new Random(round);
        while (true) {
          killedMs = System.currentTimeMillis();
          killed = System.nanoTime();
          topology.freeze(victim, true);
          tries++;
          if (tries == MAX_TRIES || stillOpen(admin, written)) {
            break;
          }
          topology.freeze(victim, false);
          Thread.sleep(pause.nextInt(50));
        }
      }
      int exit = mode == Mode.STOP ? stop(victim) : topology.crash(victim);
      long closed = System.nanoTime();
      Set<Long> open = DecisionWatch.openTransactions(admin, written);
      long abortedAt = -1;
      Map<Integer, Long> resumed = new TreeMap<>();
      Map<Integer, Long> visible = new TreeMap<>();
      while ((resumed.size() < lost.size() || visible.size() < lost.size() || (abortedAt < 0 && !open.isEmpty()))
          && System.nanoTime() - killed < MAX_OUTAGE.toNanos()) {
        Thread.sleep(200);
        for (TopologyInstances.Evaluation e : topology.since(killed)) {
          int p = partition(e.node());
          if (e.instance().equals(survivor) && lost.contains(p)) {
            resumed.putIfAbsent(p, e.nanos() - killed);
          }
        }
        for (DecisionWatch.Seen d : watch.seen) {
          if (d.decidedMs() >= killedMs && lost.contains(d.partition())) {
            visible.merge(d.partition(), d.seenNanos() - killed, Math::min);
          }
        }
        if (abortedAt < 0 && !open.isEmpty()) {
          Set<Long> still = DecisionWatch.openTransactions(admin, written);
          still.retainAll(open);
          if (still.isEmpty()) {
            abortedAt = System.nanoTime() - killed;
          }
        }
      }
      out.line("failover round %d (%s, %d standby replicas, %.1f pods/s churn): %s owned partitions %s of %d; "
              + "%s took %.1f s%s; survivor %s; its first evaluation per lost partition (%d of them): first %.1f s, "
              + "median %.1f s, last %.1f s; its first decision visible read_committed (%d of them): first %.1f s, "
              + "median %.1f s, last %.1f s; %s; churn -> evaluation before the kill: median %.1f s (%d pods created)",
          round, describe(mode), standbys, churnPerSecond, victim, lost, partitions, mode == Mode.KILL ? "SIGKILL" : "close",
          (closed - killed) / 1e9, exit >= 0 ? " (exit status " + exit + ")" + (killInsideTransaction ? ", after "
              + tries + " SIGSTOPs looking for an open transaction" : "") : "", transitions(survivor, killed),
          resumed.size(), seconds(resumed, 0), seconds(resumed, 1), seconds(resumed, 2),
          visible.size(), seconds(visible, 0), seconds(visible, 1), seconds(visible, 2),
          open.isEmpty() ? "no open transaction on its partitions after the loss"
              : String.format(java.util.Locale.ROOT, "its open transaction(s) %s on %d decisions/changelog partitions "
                  + "aborted by the coordinator %.1f s after the kill", open, written.size(), abortedAt / 1e9),
          baseline / 1e9, churn.size());
    } finally {
      load.interrupt();
      load.join();
    }
  }

  /**
   * Whether a transaction is open on {@code written}, and still is 300 ms later: one whose
   * commit the instance had sent before it stopped shows open until the coordinator writes its
   * markers, and ends without it.
   */
  private static boolean stillOpen(Admin admin, List<TopicPartition> written) throws Exception {
    Set<Long> open = DecisionWatch.openTransactions(admin, written);
    if (open.isEmpty()) {
      return false;
    }
    Thread.sleep(300);
    open.retainAll(DecisionWatch.openTransactions(admin, written));
    return !open.isEmpty();
  }

  private int stop(String victim) {
    topology.stop(victim);
    return -1;
  }

  private static String describe(Mode mode) {
    return switch (mode) {
      case KILL -> "kill -9 of a child JVM";
      case CRASH -> "in-JVM crash: no leave";
      case STOP -> "clean leave";
    };
  }

  /** The survivor's state changes after the kill, in seconds after it. */
  private String transitions(String survivor, long killed) {
    return topology.states.stream().filter(c -> c.instance().equals(survivor) && c.nanos() >= killed)
        .map(c -> String.format(java.util.Locale.ROOT, "%s at %.1f s", c.state(), (c.nanos() - killed) / 1e9))
        .collect(Collectors.joining(", ", "[", "]"));
  }

  /** The lost partitions of the decisions topic and of the application's changelogs: what the victim wrote. */
  private List<TopicPartition> lostPartitions(Admin admin, List<Integer> lost) throws Exception {
    List<String> written = new ArrayList<>(List.of(topics.decisions()));
    admin.listTopics().names().get().stream()
        .filter(t -> t.startsWith(topology.applicationId() + "-") && t.endsWith("-changelog")).sorted().forEach(written::add);
    List<TopicPartition> out = new ArrayList<>();
    for (String topic : written) {
      lost.forEach(p -> out.add(new TopicPartition(topic, p)));
    }
    return out;
  }

  /** The {@code which}-th (0 first, 1 median, 2 last) of the values, in seconds. */
  private static double seconds(Map<Integer, Long> byPartition, int which) {
    List<Long> sorted = new ArrayList<>(byPartition.values());
    Collections.sort(sorted);
    return seconds(sorted, which == 0 ? 0 : which == 1 ? sorted.size() / 2 : sorted.size() - 1);
  }

  private static double seconds(List<Long> sorted, int i) {
    return sorted.isEmpty() ? Double.NaN : sorted.get(Math.max(0, i)) / 1e9;
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
