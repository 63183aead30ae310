package dev.kubeheadroom.cli.html;

import static dev.kubeheadroom.cli.html.Chart.f;
import static dev.kubeheadroom.cli.html.Html.escape;

import dev.kubeheadroom.replay.ClusterReport;
import dev.kubeheadroom.replay.ReportWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * A run's report page ({@code simulate -o html}, the demo's report): decisions and limit changes
 * over time, the distribution of the node factors at the end, and the nodes with most changes.
 * Bars carry their counts as {@code data-} attributes and say them on hover.
 */
public final class RunPage {
  /** Time buckets of the first chart. */
  static final int BUCKETS = 60;
  /** Nodes listed by number of changes. */
  static final int TOP_NODES = 10;
  private static final int BAR_ROW = 22;

  private RunPage() {}

  public static String render(String title, RunHistory run) {
    ClusterReport.Summary s = run.report().summary();
    StringBuilder body = new StringBuilder();
    body.append("<p class=\"note\">").append(String.format(Locale.ROOT,
        "%d events (%d malformed), %d decisions, %d limit changes; %d pods and %d nodes at the end.", s.events(),
        s.malformed(), s.decisions(), s.patches(), run.report().pods().size(), run.report().nodes().size()))
        .append(" Hover a bar for its numbers.</p>\n");
    overTime(run, body);
    factors(run.report(), body);
    busiestNodes(run, body);
    return Html.page(title, body.toString());
  }

  private static void overTime(RunHistory run, StringBuilder body) {
    List<Instant> times = Stream.concat(run.decisions().stream().map(RunHistory.Decided::at),
        run.patches().stream().map(RunHistory.Patch::at)).sorted().toList();
    body.append("<h2>Decisions and limit changes over time</h2>\n");
    if (times.isEmpty()) {
      body.append("<p class=\"note\">No decision was taken.</p>\n");
      return;
    }
    Instant from = times.get(0);
    Instant to = times.get(times.size() - 1).plusSeconds(1);
    long span = Duration.between(from, to).toMillis();
    int[] decided = new int[BUCKETS];
    int[] patched = new int[BUCKETS];
    run.decisions().forEach(d -> decided[bucket(from, d.at(), span)]++);
    run.patches().forEach(p -> patched[bucket(from, p.at(), span)]++);
    int max = 1;
    for (int i = 0; i < BUCKETS; i++) {
      max = Math.max(max, Math.max(decided[i], patched[i]));
    }
    // A multiple of 4: the axis' five grid lines then fall on whole counts.
    Chart chart = new Chart(from, to, Math.max(4, Chart.niceMax(max)), 240, v -> Long.toString(Math.round(v)));
    for (int i = 0; i < BUCKETS; i++) {
      Instant start = from.plusMillis(span * i / BUCKETS);
      Instant end = from.plusMillis(span * (i + 1) / BUCKETS);
      double x0 = chart.x(start);
      double w = (chart.x(end) - x0) / 2;
      chart.draw(bar("bar-decisions", x0, w, chart, decided[i], start, end, "decisions"));
      chart.draw(bar("bar-patches", x0 + w, w, chart, patched[i], start, end, "limit changes"));
    }
    body.append("<p class=\"legend\">").append(Html.legend("bar-decisions", "decisions"))
        .append(Html.legend("bar-patches", "container limit changes")).append("</p>\n")
        .append(chart.svg("decisions and limit changes over time"));
  }

  private static int bucket(Instant from, Instant at, long span) {
    return (int) Math.min(BUCKETS - 1, Duration.between(from, at).toMillis() * BUCKETS / span);
  }

  private static String bar(String cssClass, double x, double w, Chart chart, int count, Instant start, Instant end,
      String what) {
    if (count == 0) {
      return "";
    }
    double top = chart.y(count);
    return "<rect class=\"" + cssClass + "\" x=\"" + f(x) + "\" y=\"" + f(top) + "\" width=\"" + f(Math.max(1, w - 1))
        + "\" height=\"" + f(chart.bottom() - top) + "\" data-from=\"" + Html.time(start) + "\" data-count=\"" + count
        + "\"><title>" + count + " " + what + " from " + Html.time(start) + " to " + Html.time(end)
        + "</title></rect>";
  }

  /** The end state's node factors, in buckets a quarter wide. */
  private static void factors(ClusterReport report, StringBuilder body) {
    body.append("<h2>Node factors at the end</h2>\n");
    if (report.nodes().isEmpty()) {
      body.append("<p class=\"note\">No node.</p>\n");
      return;
    }
    Map<Integer, List<String>> buckets = new TreeMap<>();
    for (ClusterReport.NodeLine n : report.nodes()) {
      buckets.computeIfAbsent((int) Math.floor(n.factor() * 4), k -> new ArrayList<>()).add(n.name());
    }
    List<Row> rows = new ArrayList<>();
    buckets.forEach((k, nodes) -> rows.add(new Row(String.format(Locale.ROOT, "%.2f – %.2f", k / 4.0, (k + 1) / 4.0),
        nodes.size(), nodes.size() + (nodes.size() == 1 ? " node" : " nodes") + " with factor in ["
            + Html.number(k / 4.0) + ", " + Html.number((k + 1) / 4.0) + "): " + String.join(", ", first(nodes)))));
    body.append(bars("bar-factor", rows, "distribution of node factors"));
  }

  private static List<String> first(List<String> names) {
    return names.size() <= 12 ? names : Stream.concat(names.stream().limit(12), Stream.of("…")).toList();
  }

  private static void busiestNodes(RunHistory run, StringBuilder body) {
    Map<String, Integer> perNode = new TreeMap<>();
    run.patches().forEach(p -> perNode.merge(p.node(), 1, Integer::sum));
    body.append("<h2>Nodes with most limit changes</h2>\n");
    if (perNode.isEmpty()) {
      body.append("<p class=\"note\">No limit changed.</p>\n");
      return;
    }
    Map<String, ClusterReport.NodeLine> lines = new TreeMap<>();
    run.report().nodes().forEach(n -> lines.put(n.name(), n));
    List<Row> rows = perNode.entrySet().stream()
        .sorted(Map.Entry.<String, Integer>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()))
        .limit(TOP_NODES).map(e -> {
          ClusterReport.NodeLine n = lines.get(e.getKey());
          return new Row(e.getKey(), e.getValue(), e.getKey() + ": " + e.getValue() + " limit changes" + (n == null
              ? " (gone at the end)" : ", at the end slack " + ReportWriter.cpu(n.slackMilli()) + " of "
                  + ReportWriter.cpu(n.allocatableMilli()) + ", factor " + Html.number(n.factor())));
        }).toList();
    body.append(bars("bar-node", rows, "nodes with most limit changes"));
  }

  /** One horizontal bar: its label, its length and what hovering it says. */
  private record Row(String label, int count, String title) {}

  private static String bars(String cssClass, List<Row> rows, String label) {
    int max = rows.stream().mapToInt(Row::count).max().orElse(1);
    int labelWidth = 200;
    int barSpace = Chart.WIDTH - labelWidth - 60;
    StringBuilder s = new StringBuilder("<svg width=\"" + Chart.WIDTH
        + "\" height=\"" + (rows.size() * BAR_ROW + 8) + "\" role=\"img\" aria-label=\"" + escape(label) + "\">\n");
    for (int i = 0; i < rows.size(); i++) {
      Row r = rows.get(i);
      int y = 4 + i * BAR_ROW;
      double w = Math.max(1, barSpace * (double) r.count() / max);
      s.append("<text x=\"").append(labelWidth - 8).append("\" y=\"").append(y + 14).append("\" text-anchor=\"end\">")
          .append(escape(r.label())).append("</text><rect class=\"").append(cssClass).append("\" x=\"")
          .append(labelWidth).append("\" y=\"").append(y + 2).append("\" width=\"").append(f(w))
          .append("\" height=\"16\" data-label=\"").append(escape(r.label())).append("\" data-count=\"")
          .append(r.count()).append("\"><title>").append(escape(r.title())).append("</title></rect><text x=\"")
          .append(f(labelWidth + w + 6)).append("\" y=\"").append(y + 14).append("\">").append(r.count())
          .append("</text>\n");
    }
    return s.append("</svg>\n").toString();
  }
}
