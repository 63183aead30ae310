package dev.kubeheadroom.installed;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Tenants at work while a fault is on: every {@code period}, a pod is bound to one of the nodes
 * or one is deleted, keeping each node below its allocatable (as the scheduler would). Seeded, so
 * a run's sequence of changes is the same every time. Calls the API server refuses (during its
 * outage) are counted, not retried: the tenant's controller would retry later, this one moves on.
 */
final class Churn implements AutoCloseable {
  private static final String[] REQUESTS = {"250m", "500m", "1", "2"};
  private static final long[] REQUEST_MILLI = {250, 500, 1000, 2000};

  private final Cluster cluster;
  private final String namespace;
  private final Map<String, Long> freeMilli;
  private final Map<String, long[]> live = new LinkedHashMap<>(); // pod -> {node index, request}
  private final List<String> nodes;
  private final Random random = new Random(20261201);
  private final AtomicInteger changes = new AtomicInteger();
  private final AtomicInteger refused = new AtomicInteger();
  private int next;
  private Thread thread;
  private volatile boolean running;

  /** {@code nodes}: name → millicores the churn may book on it. */
  Churn(Cluster cluster, String namespace, Map<String, Long> nodes) {
    this.cluster = cluster;
    this.namespace = namespace;
    this.freeMilli = new LinkedHashMap<>(nodes);
    this.nodes = new ArrayList<>(nodes.keySet());
  }

  /** Starts changing the cluster every {@code period} on a thread of its own. */
  Churn start(Duration period) {
    running = true;
    thread = new Thread(() -> {
      while (running) {
        step();
        InstalledTier.sleep(period); // a tenant's pace, not a wait for a condition
      }
    }, "churn");
    thread.setDaemon(true);
    thread.start();
    return this;
  }

  /** One change now: a new pod, or a deletion when a coin says so or the nodes are full. */
  synchronized void step() {
    int size = random.nextInt(REQUESTS.length);
    int node = random.nextInt(nodes.size());
    boolean delete = !live.isEmpty() && (random.nextInt(3) == 0 || freeMilli.get(nodes.get(node)) < REQUEST_MILLI[size]);
    try {
      if (delete) {
        String pod = new ArrayList<>(live.keySet()).get(random.nextInt(live.size()));
        cluster.admin().pods().inNamespace(namespace).withName(pod).delete();
        long[] was = live.remove(pod);
        freeMilli.merge(nodes.get((int) was[0]), was[1], Long::sum);
      } else {
        String pod = "c" + next++;
        Pod created = cluster.pod(namespace, pod, nodes.get(node), REQUESTS[size]);
        live.put(created.getMetadata().getName(), new long[] {node, REQUEST_MILLI[size]});
        freeMilli.merge(nodes.get(node), -REQUEST_MILLI[size], Long::sum);
      }
      changes.incrementAndGet();
    } catch (KubernetesClientException e) {
      refused.incrementAndGet();
    }
  }

  int changes() {
    return changes.get();
  }

  int refused() {
    return refused.get();
  }

  /** Stops after the change in progress (not interrupted: a half-made call would leave its pod unknown). */
  @Override
  public void close() {
    running = false;
    if (thread != null) {
      try {
        thread.join(30_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
