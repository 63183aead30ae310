package dev.kubeheadroom.bench;

import dev.kubeheadroom.demo.DemoRun;
import dev.kubeheadroom.demo.DemoSummary;
import dev.kubeheadroom.projection.WatchEvent;
import dev.kubeheadroom.schemas.HeadroomKeys;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

/**
 * Bind → patch latency of the live pipeline (embedded broker, ingest, topology, actuator, the API
 * double and kubelet over HTTP) at the real default config, speed 1: {@code pods} pods arrive at
 * a steady {@code rate} per second, each bound at creation to the least-allocated of {@code nodes}
 * nodes, and the run reports, from {@link DemoRun}'s summary: bind → first limit change p50 / p99,
 * resize calls, API writes per scheduling event and decisions. Target: p99 ≤ debounce
 * period + 1 s = 3 s.
 *
 * <p>CPU requests and node sizes come from the Alibaba openb trace when its directory is given
 * (the first {@code nodes} nodes; pods in trace order, those that fit nowhere skipped), else from
 * a seeded generator (32-core nodes, requests 100–4000m).
 *
 * <pre>
 * java -cp tooling/bench/target/benchmarks.jar dev.kubeheadroom.bench.BindToPatchBench [pods] [nodes] [rate] [traceDir]
 * </pre>
 */
public final class BindToPatchBench {
  private static final String NS = "bench";

  private BindToPatchBench() {}

  public static void main(String[] args) throws Exception {
    int pods = args.length > 0 ? Integer.parseInt(args[0]) : 200;
    int nodes = args.length > 1 ? Integer.parseInt(args[1]) : 20;
    double rate = args.length > 2 ? Double.parseDouble(args[2]) : 4.0;
    Path trace = args.length > 3 ? Path.of(args[3]) : null;

    List<WatchEvent> events = scenario(pods, nodes, rate, trace);
    Path work = Files.createTempDirectory("bind-to-patch");
    System.out.printf(Locale.ROOT, "bind → patch: %d pods over %d nodes at %.1f/s (%s), speed 1%n",
        events.stream().filter(e -> e.object() instanceof Pod).count(), nodes, rate,
        trace == null ? "seeded generator" : "openb trace " + trace);
    try (DemoRun run = new DemoRun(new DemoRun.Options(work, 1.0, Duration.ofMinutes(2)))) {
      DemoRun.Result result = run.run(events, change -> {}, System.out::println);
      DemoSummary s = result.summary();
      s.lines().forEach(System.out::println);
      System.out.printf(Locale.ROOT, "RESULT binds=%d decisions=%d resizeCalls=%d limitChanges=%d apiWrites=%d "
              + "writesPerSchedulingEvent=%.2f p50=%dms p90=%dms p99=%dms max=%dms measured=%d%n",
          s.binds(), s.decisions(), s.resizeCalls(), s.limitChanges(), s.apiWrites(), s.writesPerSchedulingEvent(),
          s.bindToPatch(0.5).toMillis(), s.bindToPatch(0.9).toMillis(), s.bindToPatch(0.99).toMillis(),
          s.bindToPatch(1.0).toMillis(), s.bindToPatch().size());
    }
  }

  /** The namespace, the nodes, then one ADDED pod (bound) every 1/rate seconds. */
  static List<WatchEvent> scenario(int podCount, int nodeCount, double rate, Path trace) throws IOException {
    long[] capacity = new long[nodeCount];
    List<Long> requests = new ArrayList<>();
    if (trace == null) {
      Random random = new Random(42);
      java.util.Arrays.fill(capacity, 32_000);
      for (int i = 0; i < podCount; i++) {
        requests.add(100L + random.nextInt(40) * 100L);
      }
    } else {
      List<String> nodeLines = Files.readAllLines(trace.resolve("openb_node_list_all_node.csv"));
      for (int i = 0; i < nodeCount; i++) {
        capacity[i] = Long.parseLong(nodeLines.get(i + 1).split(",")[1]);
      }
      Files.readAllLines(trace.resolve("openb_pod_list_default.csv")).stream().skip(1)
          .map(line -> Long.parseLong(line.split(",")[1])).filter(m -> m > 0).forEach(requests::add);
    }
    Instant t0 = Instant.parse("2026-01-01T00:00:00Z");
    List<WatchEvent> events = new ArrayList<>();
    long line = 1;
    events.add(added(line++, t0, new NamespaceBuilder().withNewMetadata().withName(NS)
        .withLabels(Map.of(HeadroomKeys.MODE_LABEL, HeadroomKeys.MANAGED)).endMetadata().build()));
    for (int n = 0; n < nodeCount; n++) {
      events.add(added(line++, t0, new NodeBuilder().withNewMetadata().withName(node(n))
          .withLabels(Map.of("kubernetes.io/os", "linux")).endMetadata().withNewStatus()
          .withAllocatable(Map.of("cpu", new Quantity(capacity[n] + "m"), "memory", new Quantity("256Gi")))
          .endStatus().build()));
    }
    long[] booked = new long[nodeCount];
    Instant start = t0.plusSeconds(1);
    int placed = 0;
    for (int i = 0; i < requests.size() && placed < podCount; i++) {
      long request = requests.get(i);
      int best = -1;
      for (int n = 0; n < nodeCount; n++) { // least allocated (most free) node that fits
        long free = capacity[n] - booked[n];
        if (free >= request && (best < 0 || free > capacity[best] - booked[best])) {
          best = n;
        }
      }
      if (best < 0) {
        continue;
      }
      booked[best] += request;
      Instant at = start.plusNanos(Math.round(placed * 1e9 / rate));
      events.add(added(line++, at, pod("pod-" + placed, node(best), request)));
      placed++;
    }
    return events;
  }

  private static String node(int n) {
    return String.format(Locale.ROOT, "node-%02d", n);
  }

  private static Pod pod(String name, String node, long requestMilli) {
    return new PodBuilder()
        .withNewMetadata().withNamespace(NS).withName(name).withUid("uid-" + name).endMetadata()
        .withNewSpec().withNodeName(node)
          .addNewContainer().withName("app").withImage("registry.example/app:1").withNewResources()
            .addToRequests("cpu", new Quantity(requestMilli + "m")).addToRequests("memory", new Quantity("256Mi"))
          .endResources().endContainer()
        .endSpec()
        .withNewStatus().withPhase("Running").withQosClass("Burstable").endStatus()
        .build();
  }

  private static WatchEvent added(long line, Instant at, HasMetadata object) {
    return new WatchEvent(line, WatchEvent.Type.ADDED, at, object);
  }
}
