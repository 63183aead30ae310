package dev.kubeheadroom.cli.html;

import static dev.kubeheadroom.cli.html.Chart.f;
import static dev.kubeheadroom.cli.html.Html.escape;

import dev.kubeheadroom.replay.ReportWriter;
import dev.kubeheadroom.replay.Timeline;
import dev.kubeheadroom.schemas.ContainerChange;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * {@code audit --from --to -o html}: a {@link Timeline} drawn. The node's slack and factor, then per
 * container its limit (a step line) and request, each decision and outcome a marker whose SVG
 * {@code <title>} (shown on hover) says why, the neighbours' arrivals and departures as vertical
 * lines; every point also carries its values as {@code data-} attributes, as the JSON gives them.
 */
public final class TimelinePage {
  private static final int HEIGHT = 220;

  private TimelinePage() {}

  public static String render(Timeline t) {
    StringBuilder body = new StringBuilder();
    body.append("<p class=\"note\">From ").append(escape(Html.time(t.from()))).append(" to ")
        .append(escape(Html.time(t.to()))).append(" (UTC): ").append(t.decisions().size()).append(" decisions, ")
        .append(t.outcomes().size()).append(" outcomes, ").append(t.neighbours().size())
        .append(" arrivals and departures. Hover a marker for its reason.</p>\n<p class=\"legend\">")
        .append(Html.legend("limit-point", "limit")).append(Html.legend("request", "request"))
        .append(Html.legend("decision", "decision")).append(Html.legend("outcome-applied", "applied"))
        .append(Html.legend("outcome-refused", "refused or failed"))
        .append(Html.legend("arrival", "a pod arrived")).append(Html.legend("departure", "a pod left"))
        .append("</p>\n");
    node(t, body);
    for (Timeline.PodTrack pod : t.pods()) {
      body.append("<h2>Pod ").append(escape(pod.namespace() + "/" + pod.name())).append("</h2>\n");
      for (Timeline.ContainerTrack c : pod.containers()) {
        body.append("<h3>container ").append(escape(c.name())).append("</h3>\n");
        body.append(container(t, pod, c));
      }
    }
    body.append(events(t));
    return Html.page("Headroom audit: " + t.subject(), body.toString());
  }

  private static void node(Timeline t, StringBuilder body) {
    if (t.nodes().isEmpty()) {
      return;
    }
    List<Instant> times = t.nodes().stream().map(Timeline.NodePoint::at).toList();
    long allocatable = t.nodes().stream().mapToLong(Timeline.NodePoint::allocatableMilli).max().orElse(1);
    Chart slack = new Chart(t.from(), t.to(), Chart.niceMax(allocatable), HEIGHT, v -> ReportWriter.cpu(Math.round(v)));
    slack.step("slack", times, t.nodes().stream().map(p -> (double) p.slackMilli()).toList(), t.to());
    double maxFactor = Chart.niceMax(Math.max(2, t.nodes().stream().mapToDouble(Timeline.NodePoint::factor).max()
        .orElse(1) * 1.05));
    Chart factor = new Chart(t.from(), t.to(), maxFactor, HEIGHT, Html::number);
    factor.step("factor", times, t.nodes().stream().map(Timeline.NodePoint::factor).toList(), t.to());
    for (Timeline.NodePoint p : t.nodes()) {
      String title = escape(Html.time(p.at()) + ": node " + p.node() + ", slack " + ReportWriter.cpu(p.slackMilli())
          + " of " + ReportWriter.cpu(p.allocatableMilli()) + ", factor " + Html.number(p.factor()));
      String data = " data-at=\"" + escape(Html.time(p.at())) + "\" data-node=\"" + escape(p.node())
          + "\" data-slack-milli=\"" + p.slackMilli() + "\" data-allocatable-milli=\"" + p.allocatableMilli()
          + "\" data-factor=\"" + p.factor() + "\"";
      slack.draw(circle("slack-point", slack.x(p.at()), slack.y(p.slackMilli()), data, title));
      factor.draw(circle("factor-point", factor.x(p.at()), factor.y(p.factor()), data, title));
    }
    neighbours(t, slack);
    neighbours(t, factor);
    String node = t.nodes().get(t.nodes().size() - 1).node();
    body.append("<h2>Node ").append(escape(node)).append("</h2>\n<h3>slack (allocatable − Σ requests)</h3>\n")
        .append(slack.svg("slack of node " + node)).append("<h3>factor F = 1 + S/M</h3>\n")
        .append(factor.svg("factor of node " + node));
  }

  private static String container(Timeline t, Timeline.PodTrack pod, Timeline.ContainerTrack c) {
    List<Timeline.DecisionMark> decided = t.decisions().stream()
        .filter(d -> d.namespace().equals(pod.namespace()) && d.name().equals(pod.name())).toList();
    double max = 0;
    for (Timeline.LimitPoint p : c.points()) {
      max = Math.max(max, Math.max(p.limitMilli(), p.requestMilli()));
    }
    for (Timeline.DecisionMark d : decided) {
      max = Math.max(max, change(d, c.name()).map(ContainerChange::toMilli).orElse(0L));
    }
    Instant end = pod.departedAt() == null ? t.to() : pod.departedAt();
    Chart chart = new Chart(t.from(), t.to(), Chart.niceMax(max * 1.1), HEIGHT, v -> ReportWriter.cpu(Math.round(v)));
    List<Instant> times = c.points().stream().map(Timeline.LimitPoint::at).toList();
    chart.step("request", times, c.points().stream().map(p -> (double) p.requestMilli()).toList(), end);
    chart.step("limit", times, c.points().stream().map(p -> (double) p.limitMilli()).toList(), end);
    neighbours(t, chart);
    String ref = pod.namespace() + "/" + pod.name();
    for (Timeline.LimitPoint p : c.points()) {
      chart.draw(circle("limit-point", chart.x(p.at()), chart.y(p.limitMilli()), " data-pod=\"" + escape(ref)
          + "\" data-container=\"" + escape(c.name()) + "\" data-at=\"" + escape(Html.time(p.at()))
          + "\" data-limit-milli=\"" + p.limitMilli() + "\" data-request-milli=\"" + p.requestMilli() + "\"",
          escape(Html.time(p.at()) + ": limit " + limit(p.limitMilli()) + ", request "
              + ReportWriter.cpu(p.requestMilli()))));
    }
    for (Timeline.DecisionMark d : decided) {
      Optional<ContainerChange> own = change(d, c.name());
      long y = own.map(ContainerChange::toMilli).orElse(d.targetMilli());
      double x = chart.x(d.at());
      double cy = chart.y(y);
      chart.draw("<polygon class=\"decision\" points=\"" + f(x) + "," + f(cy - 6) + " " + f(x + 6) + "," + f(cy) + " "
          + f(x) + "," + f(cy + 6) + " " + f(x - 6) + "," + f(cy) + "\" data-at=\"" + escape(Html.time(d.at()))
          + "\" data-reason=\"" + escape(d.reason()) + "\" data-target-milli=\"" + d.targetMilli() + "\"><title>"
          + escape(Html.time(d.at()) + ": decision (" + d.reason() + (d.dryRun() ? ", dry run" : "") + "): "
              + own.map(o -> c.name() + " " + limit(o.fromMilli()) + " → " + limit(o.toMilli()) + "; ").orElse("")
              + "pod " + limit(d.fromMilli()) + " → " + limit(d.targetMilli()) + ", node factor "
              + Html.number(d.factor()))
          + "</title></polygon>");
    }
    for (Timeline.OutcomeMark o : t.outcomes()) {
      if (o.namespace().equals(pod.namespace()) && o.name().equals(pod.name())) {
        double x = chart.x(o.at());
        chart.draw("<rect class=\"" + outcomeClass(o) + "\" x=\"" + f(x - 5) + "\" y=\"" + f(chart.top()) + "\" "
            + "width=\"10\" height=\"10\" data-at=\"" + escape(Html.time(o.at())) + "\" data-result=\""
            + escape(o.result()) + "\" data-target-milli=\"" + o.targetMilli() + "\"><title>"
            + escape(Html.time(o.at()) + ": " + o.result() + ", target " + limit(o.targetMilli())
                + (o.message().isEmpty() ? "" : ": " + o.message()))
            + "</title></rect>");
      }
    }
    return chart.svg("limit of " + ref + " container " + c.name());
  }

  /** Applied resizes in green; everything else (refused, deferred, failed) in red. */
  private static String outcomeClass(Timeline.OutcomeMark o) {
    return "applied".equals(o.result()) ? "outcome-applied" : "outcome-refused";
  }

  private static Optional<ContainerChange> change(Timeline.DecisionMark d, String container) {
    return d.containers().stream().filter(c -> c.name().equals(container)).findFirst();
  }

  private static void neighbours(Timeline t, Chart chart) {
    for (Timeline.NeighbourMark n : t.neighbours()) {
      double x = chart.x(n.at());
      chart.draw("<line class=\"" + (n.arrived() ? "arrival" : "departure") + "\" x1=\"" + f(x) + "\" x2=\"" + f(x)
          + "\" y1=\"" + f(chart.top()) + "\" y2=\"" + f(chart.bottom()) + "\" stroke-width=\"4\" "
          + "stroke-opacity=\"0.45\" data-at=\"" + escape(Html.time(n.at())) + "\"><title>"
          + escape(Html.time(n.at()) + ": " + n.namespace() + "/" + n.name() + (n.arrived() ? " arrived" : " left")
              + " (request " + ReportWriter.cpu(n.requestMilli()) + ")")
          + "</title></line>");
    }
  }

  private static String circle(String cssClass, double x, double y, String data, String title) {
    return "<circle class=\"" + cssClass + "\" cx=\"" + f(x) + "\" cy=\"" + f(y) + "\" r=\"4\"" + data + "><title>"
        + title + "</title></circle>";
  }

  private static String limit(long milli) {
    return milli == 0 ? "none" : ReportWriter.cpu(milli);
  }

  /** Every marker again, as a table in time order (for reading, copying, and screen readers). */
  private static String events(Timeline t) {
    record Row(Instant at, String kind, String pod, String detail) {}
    List<Row> rows = new ArrayList<>();
    t.decisions().forEach(d -> rows.add(new Row(d.at(), "decision", d.namespace() + "/" + d.name(), d.reason() + ": "
        + limit(d.fromMilli()) + " → " + limit(d.targetMilli()) + ", node factor " + Html.number(d.factor())
        + (d.dryRun() ? " (dry run)" : ""))));
    t.outcomes().forEach(o -> rows.add(new Row(o.at(), "outcome", o.namespace() + "/" + o.name(), o.result()
        + ", target " + limit(o.targetMilli()) + (o.message().isEmpty() ? "" : ": " + o.message()))));
    t.neighbours().forEach(n -> rows.add(new Row(n.at(), n.arrived() ? "arrival" : "departure",
        n.namespace() + "/" + n.name(), "request " + ReportWriter.cpu(n.requestMilli()))));
    rows.sort(Comparator.comparing(Row::at).thenComparing(Row::kind).thenComparing(Row::pod));
    StringBuilder s = new StringBuilder("<h2>Events</h2>\n<table><tr><th>time</th><th>what</th><th>pod</th>"
        + "<th>detail</th></tr>\n");
    for (Row r : rows) {
      s.append("<tr><td>").append(escape(Html.time(r.at()))).append("</td><td>").append(r.kind()).append("</td><td>")
          .append(escape(r.pod())).append("</td><td>").append(escape(r.detail())).append("</td></tr>\n");
    }
    return s.append("</table>\n").toString();
  }
}
