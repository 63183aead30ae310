package dev.kubeheadroom.scenarios;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * A scenario from the Alibaba openb GPU-cluster trace (2023; {@code ../shared/traces/alibaba-openb},
 * never copied into this repository). The trace has node capacities and pod CPU requests and
 * lifetimes but no placement, and the real cluster was nearly empty at any one moment (about 16
 * pods live on average over its 149 days), so this:
 *
 * <ul>
 *   <li>takes {@code nodes} nodes from the node list, a seeded sample, with their CPU and memory
 *       (GPUs are ignored: Headroom is about CPU);
 *   <li>compresses creation times by {@code arrivalCompression} and each pod's scheduling delay and
 *       lifetime by {@code lifetimeCompression} (arrivals squeezed harder than lifetimes packs the
 *       nodes; equal factors keep the trace's near-empty occupancy);
 *   <li>places pods least-allocated by CPU among the nodes that fit ({@link ScenarioAssembler});
 *       pods that fit nowhere are counted and left out, as are pods the trace never scheduled;
 *   <li>puts each pod in the managed namespace with probability {@code managedRatio} (seeded);
 *       pods of the trace's best-effort class (BE) are owned by a Job, the rest by a ReplicaSet;
 *       pods that ended Failed or Succeeded get that phase before their DELETED line;
 *   <li>optionally replays the trace {@code passes} times back to back (more events, same shape).
 * </ul>
 *
 * Deterministic for a given trace and options.
 */
public final class TraceScenario {
  public static final String NODE_FILE = "openb_node_list_all_node.csv";
  public static final String POD_FILE = "openb_pod_list_default.csv";
  public static final Instant DEFAULT_START = Instant.parse("2026-03-01T00:00:00Z");

  /**
   * @param nodes how many trace nodes to use (at most the trace's 1,523)
   * @param arrivalCompression trace creation times are divided by this
   * @param lifetimeCompression scheduling delays and lifetimes are divided by this
   * @param managedRatio share of pods in the managed namespace, 0..1
   * @param seed node sample and namespace split
   * @param passes how many times the pod list is replayed back to back (≥ 1)
   * @param withConfig whether the log starts with a HeadroomConfig ({@code dryRun: false})
   * @param start the scenario's time zero
   */
  public record Options(int nodes, double arrivalCompression, double lifetimeCompression,
      double managedRatio, long seed, int passes, boolean withConfig, Instant start) {
    public Options {
      if (nodes < 1) {
        throw new IllegalArgumentException("nodes must be >= 1, got " + nodes);
      }
      if (!(arrivalCompression > 0) || !(lifetimeCompression > 0)) {
        throw new IllegalArgumentException("compression factors must be positive");
      }
      if (!(managedRatio >= 0 && managedRatio <= 1)) {
        throw new IllegalArgumentException("managedRatio must be within 0..1, got " + managedRatio);
      }
      if (passes < 1) {
        throw new IllegalArgumentException("passes must be >= 1, got " + passes);
      }
      start = start == null ? DEFAULT_START : start;
    }

    /**
     * {@code nodes} nodes, arrivals ×2000 and lifetimes ×10 faster (the whole trace in about 1.8
     * hours of log time), three in four pods managed, one pass, with a HeadroomConfig. On 300
     * nodes that books at most 53% of the CPU at once and places all but 18 of the 7,254 pods;
     * on 100 nodes, 96% and 1,454 pods fit nowhere ({@code TraceShapeTool} prints these).
     */
    public static Options defaults(int nodes) {
      return new Options(nodes, 2000, 10, 0.75, 1, 1, true, DEFAULT_START);
    }

    public Options withSeed(long value) {
      return new Options(nodes, arrivalCompression, lifetimeCompression, managedRatio, value, passes, withConfig, start);
    }

    public Options withPasses(int value) {
      return new Options(nodes, arrivalCompression, lifetimeCompression, managedRatio, seed, value, withConfig, start);
    }

    public Options withCompression(double arrivals, double lifetimes) {
      return new Options(nodes, arrivals, lifetimes, managedRatio, seed, passes, withConfig, start);
    }
  }

  private TraceScenario() {}

  /** Whether {@code dir} holds the two trace files. */
  public static boolean available(Path dir) {
    return dir != null && Files.isReadable(dir.resolve(NODE_FILE)) && Files.isReadable(dir.resolve(POD_FILE));
  }

  /** Builds the scenario from the trace in {@code traceDir}. */
  public static Scenario build(Path traceDir, Options options) throws IOException {
    List<Map<String, String>> nodeRows = readCsv(traceDir.resolve(NODE_FILE));
    List<Map<String, String>> podRows = readCsv(traceDir.resolve(POD_FILE));
    if (options.nodes() > nodeRows.size()) {
      throw new IllegalArgumentException("the trace has " + nodeRows.size() + " nodes, asked for " + options.nodes());
    }
    Random random = new Random(options.seed());
    List<Integer> indexes = new ArrayList<>();
    for (int i = 0; i < nodeRows.size(); i++) {
      indexes.add(i);
    }
    Collections.shuffle(indexes, random);
    List<Integer> chosen = new ArrayList<>(indexes.subList(0, options.nodes()));
    Collections.sort(chosen);
    List<NodePlan> nodes = new ArrayList<>();
    for (int i : chosen) {
      Map<String, String> row = nodeRows.get(i);
      nodes.add(new NodePlan(row.get("sn"), number(row, "cpu_milli"), number(row, "memory_mib")));
    }

    long spanMs = 0;
    for (Map<String, String> row : podRows) {
      spanMs = Math.max(spanMs, Math.round(number(row, "creation_time") * 1000 / options.arrivalCompression()));
    }
    spanMs += 1000; // a pass starts a second after the previous one's last arrival
    List<PodPlan> pods = new ArrayList<>();
    int skipped = 0;
    for (int pass = 0; pass < options.passes(); pass++) {
      for (Map<String, String> row : podRows) {
        String scheduled = row.get("scheduled_time");
        String deleted = row.get("deletion_time");
        long cpu = number(row, "cpu_milli");
        long mem = number(row, "memory_mib");
        boolean managed = random.nextDouble() < options.managedRatio();
        if (scheduled == null || scheduled.isEmpty() || deleted == null || deleted.isEmpty()
            || cpu <= 0 || mem <= 0) {
          skipped++; // never scheduled in the real cluster (or no request): not a bind to replay
          continue;
        }
        long createdS = number(row, "creation_time");
        long scheduledS = Long.parseLong(scheduled);
        long deletedS = Long.parseLong(deleted);
        if (scheduledS < createdS || deletedS <= scheduledS) {
          skipped++;
          continue;
        }
        long created = pass * spanMs + Math.round(createdS * 1000 / options.arrivalCompression());
        long bind = created + Math.round((scheduledS - createdS) * 1000 / options.lifetimeCompression());
        long end = bind + Math.max(1, Math.round((deletedS - scheduledS) * 1000 / options.lifetimeCompression()));
        String phase = switch (row.get("pod_phase")) {
          case "Failed" -> "Failed";
          case "Succeeded" -> "Succeeded";
          default -> "Running";
        };
        String owner = "BE".equals(row.get("qos")) ? PodPlan.JOB : PodPlan.REPLICA_SET;
        String name = String.format("trace-p%d-%05d", pass, pods.size() + skipped);
        pods.add(new PodPlan(name, managed, owner, cpu, mem, created, bind, end, phase));
      }
    }
    return ScenarioAssembler.assemble(options.seed(), options.start(), options.withConfig(), nodes, pods, skipped);
  }

  private static long number(Map<String, String> row, String column) {
    String v = row.get(column);
    if (v == null || v.isEmpty()) {
      return 0;
    }
    return Long.parseLong(v);
  }

  /** The trace CSVs: a header line, comma-separated, no quoting. */
  static List<Map<String, String>> readCsv(Path file) throws IOException {
    List<Map<String, String>> rows = new ArrayList<>();
    try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      String header = in.readLine();
      if (header == null) {
        return rows;
      }
      String[] columns = header.split(",", -1);
      String line;
      while ((line = in.readLine()) != null) {
        if (line.isBlank()) {
          continue;
        }
        String[] cells = line.split(",", -1);
        Map<String, String> row = new HashMap<>();
        for (int i = 0; i < columns.length && i < cells.length; i++) {
          row.put(columns[i], cells[i]);
        }
        rows.add(row);
      }
    }
    return rows;
  }
}
