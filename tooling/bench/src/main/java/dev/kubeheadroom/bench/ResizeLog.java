package dev.kubeheadroom.bench;

import dev.kubeheadroom.kubedouble.RequestJournal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The resizes of one window of the double's journal, per pod: how many pods, how many times
 * each, which limits each asked for, and how they compare with the seeded limit. It tells a limit
 * that flaps (the same pod resized back and forth) from a backlog (each pod once) and from a
 * seeding mismatch (each pod once, all away from its seeded limit).
 */
final class ResizeLog {
  private static final Pattern CPU = Pattern.compile("\"cpu\"\\s*:\\s*\"([^\"]+)\"");

  private ResizeLog() {}

  static List<String> describe(List<RequestJournal.Entry> window, DesignPointCluster cluster, Instant t0) {
    Map<String, DesignPointCluster.SeededPod> seeded = new java.util.HashMap<>();
    cluster.pods.forEach(p -> seeded.put(p.namespace() + "/" + p.name(), p));
    Map<String, List<RequestJournal.Entry>> byPod = new LinkedHashMap<>();
    for (RequestJournal.Entry e : window) {
      if (DesignPointBench.isResize(e.request())) {
        byPod.computeIfAbsent(e.request().namespace() + "/" + e.request().name(), k -> new ArrayList<>()).add(e);
      }
    }
    List<String> out = new ArrayList<>();
    long calls = byPod.values().stream().mapToLong(List::size).sum();
    TreeMap<Integer, Long> histogram = byPod.values().stream().collect(Collectors.groupingBy(List::size, TreeMap::new, Collectors.counting()));
    long nodes = byPod.keySet().stream().map(k -> seeded.containsKey(k) ? seeded.get(k).node() : "?").distinct().count();
    long grow = 0;
    long shrink = 0;
    long same = 0;
    for (Map.Entry<String, List<RequestJournal.Entry>> pod : byPod.entrySet()) {
      DesignPointCluster.SeededPod p = seeded.get(pod.getKey());
      long first = limit(pod.getValue().get(0).body());
      if (p == null || first < 0) {
        continue;
      }
      if (first > p.limitMilli()) {
        grow++;
      } else if (first < p.limitMilli()) {
        shrink++;
      } else {
        same++;
      }
    }
    out.add(String.format(java.util.Locale.ROOT,
        "resizes: %d calls on %d pods of %d nodes; calls per pod %s; first resize vs seeded limit: %d grow, %d shrink, %d equal",
        calls, byPod.size(), nodes, histogram, grow, shrink, same));
    byPod.entrySet().stream().sorted((x, y) -> y.getValue().size() - x.getValue().size()).limit(6).forEach(pod -> {
      DesignPointCluster.SeededPod p = seeded.get(pod.getKey());
      out.add("  " + pod.getKey() + (p == null ? "" : " on " + p.node() + " request " + p.requestMilli() + "m seeded " + p.limitMilli() + "m")
          + ": " + pod.getValue().stream().map(e -> String.format(java.util.Locale.ROOT, "+%.1fs %dm %d",
              (e.at().toEpochMilli() - t0.toEpochMilli()) / 1000.0, limit(e.body()), e.code())).collect(Collectors.joining(", ")));
    });
    return out;
  }

  /** The first CPU limit a resize body asks for, in millicores; -1 if none. */
  static long limit(String body) {
    String text = limitText(body);
    return text.isEmpty() ? -1 : dev.kubeheadroom.projection.CpuQuantity.parseMilli(text);
  }

  private static String limitText(String body) {
    Matcher m = CPU.matcher(body == null ? "" : body);
    return m.find() ? m.group(1) : "";
  }
}
