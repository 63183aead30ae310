package dev.kubeheadroom.launcher;

import dev.kubeheadroom.demo.LimitChange;
import dev.kubeheadroom.replay.ClusterReport;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The demo's closing lines for people: what it managed and changed, the spread of node factors,
 * where its event log is, and the {@code explain}/{@code audit} commands that read it (an
 * embedded broker started on that directory serves the demo's topics again).
 *
 * @param report the end state (simulate form)
 * @param changes the limit changes, in the order seen
 * @param wall how long the run took
 * @param directory the demo's directory: the broker's data under {@code kafka/}, and the log file
 * @param end when the run ended: the audit's moment (whole seconds, rounded up)
 */
record DemoRecap(ClusterReport report, List<LimitChange> changes, Duration wall, Path directory, Instant end) {
  DemoRecap {
    changes = List.copyOf(changes);
  }

  List<String> lines() {
    List<String> lines = new ArrayList<>();
    long managed = report.pods().stream().filter(ClusterReport.PodLine::managed).count();
    lines.add(String.format(Locale.ROOT, "%d pods managed, %d limit changes in %.1f s%s", managed, changes.size(),
        wall.toMillis() / 1000.0, factors()));
    lines.add("kept in " + directory + ": the event log (kafka/) and the pipeline's logs (" + DemoLog.FILE_NAME + ")");
    lines.add("the run's report: " + directory.resolve(DemoReport.FILE_NAME).toUri());
    String dataDir = " --data-dir " + directory;
    Optional<LimitChange> last = changes.isEmpty() ? Optional.empty() : Optional.of(changes.get(changes.size() - 1));
    String prefix = "try: ";
    if (last.isPresent()) {
      lines.add(prefix + "./headroom explain " + last.get().namespace() + "/" + last.get().pod() + dataDir);
      prefix = "     ";
    }
    String node = last.map(LimitChange::node).orElse(report.nodes().isEmpty() ? null : report.nodes().get(0).name());
    if (node != null) {
      lines.add(prefix + "./headroom audit --node " + node + " --at " + atSecond(end) + dataDir);
    }
    return lines;
  }

  /** "; node factor 1.00 (n2) to 2.45 (n1)", or nothing when the cluster has no node. */
  private String factors() {
    Comparator<ClusterReport.NodeLine> byFactor = Comparator.comparingDouble(ClusterReport.NodeLine::factor);
    Optional<ClusterReport.NodeLine> smallest = report.nodes().stream().min(byFactor);
    Optional<ClusterReport.NodeLine> largest = report.nodes().stream().max(byFactor);
    if (smallest.isEmpty()) {
      return "";
    }
    return String.format(Locale.ROOT, "; node factor %.2f (%s) to %.2f (%s)", smallest.get().factor(),
        smallest.get().name(), largest.get().factor(), largest.get().name());
  }

  private static Instant atSecond(Instant t) {
    Instant whole = t.truncatedTo(ChronoUnit.SECONDS);
    return whole.equals(t) ? whole : whole.plusSeconds(1);
  }
}
