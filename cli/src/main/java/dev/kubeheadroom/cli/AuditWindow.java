package dev.kubeheadroom.cli;

import dev.kubeheadroom.cli.html.TimelinePage;
import dev.kubeheadroom.replay.Audit;
import dev.kubeheadroom.replay.Printable;
import dev.kubeheadroom.replay.ReportWriter;
import dev.kubeheadroom.replay.Timeline;
import dev.kubeheadroom.replay.TimelineRecorder;
import dev.kubeheadroom.schemas.Topics;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;

/**
 * {@code audit --pod|--node … --from T1 --to T2}: how the limits moved over a window and why, as
 * one replay up to T2 (from the last checkpoint at or before T1) that records a {@link Timeline};
 * printed as text, JSON, YAML, or drawn as a page ({@code -o html}).
 */
final class AuditWindow {
  private AuditWindow() {}

  /** The subject of {@code --pod NAMESPACE/NAME} or {@code --node NODE}. */
  static TimelineRecorder.Subject subject(String pod, String node) {
    if (node != null) {
      return TimelineRecorder.Subject.node(node);
    }
    if (pod == null) {
      throw new UserError("--from/--to draw one pod or one node: give --pod NAMESPACE/NAME or --node NODE");
    }
    String[] parts = pod.split("/", 2);
    if (parts.length != 2 || parts[0].isEmpty() || parts[1].isEmpty()) {
      throw new UserError("--pod " + pod + ": expected NAMESPACE/NAME");
    }
    return TimelineRecorder.Subject.pod(parts[0], parts[1]);
  }

  static Timeline record(KafkaConnection connection, Topics topics, TimelineRecorder.Subject subject, Instant from,
      Instant to, boolean fromCheckpoint, PrintWriter err, Progress shown) {
    if (to.isBefore(from)) {
      throw new UserError("--to " + to + " is before --from " + from);
    }
    if (to.isAfter(Instant.now().plus(Duration.ofMinutes(1)))) {
      throw new UserError("--to " + to + " is in the future");
    }
    TimelineRecorder recorder = new TimelineRecorder(subject, from, to, topics);
    try (Audit ignored = AuditReplay.replay(connection, topics, from, to, fromCheckpoint, err, shown, recorder)) {
      Timeline timeline = recorder.timeline();
      if (timeline.nodes().isEmpty() && timeline.pods().isEmpty()) {
        throw new UserError(subject + (subject.node() != null ? " was not known" : " was on no node") + " between "
            + from + " and " + to);
      }
      return timeline;
    } catch (IllegalArgumentException | IllegalStateException e) {
      throw new UserError(e.getMessage());
    }
  }

  static void print(Timeline t, OutputFormat format, PrintWriter out) {
    switch (format) {
      case html -> out.print(TimelinePage.render(t));
      case json, yaml -> StructuredOutput.write(format, t, out);
      case table -> table(t, out);
    }
    out.flush();
  }

  /** The text form: the changes of each series and each marker, in time order per kind. */
  private static void table(Timeline t, PrintWriter out) {
    out.printf(Locale.ROOT, "%s from %s to %s%n", Printable.escape(t.subject()), t.from(), t.to());
    for (Timeline.NodePoint p : t.nodes()) {
      out.printf(Locale.ROOT, "  %s  node %s: slack %s of %s, factor %.2f%n", p.at(), Printable.escape(p.node()),
          ReportWriter.cpu(p.slackMilli()), ReportWriter.cpu(p.allocatableMilli()), p.factor());
    }
    for (Timeline.PodTrack pod : t.pods()) {
      for (Timeline.ContainerTrack c : pod.containers()) {
        for (Timeline.LimitPoint p : c.points()) {
          out.printf(Locale.ROOT, "  %s  %s/%s %s: limit %s, request %s%n", p.at(), Printable.escape(pod.namespace()),
              Printable.escape(pod.name()), Printable.escape(c.name()),
              limit(p.limitMilli()), ReportWriter.cpu(p.requestMilli()));
        }
      }
    }
    for (Timeline.DecisionMark d : t.decisions()) {
      out.printf(Locale.ROOT, "  %s  decision %s/%s: %s → %s (%s, node factor %.2f)%n", d.at(),
          Printable.escape(d.namespace()), Printable.escape(d.name()), limit(d.fromMilli()), limit(d.targetMilli()),
          d.reason(), d.factor());
    }
    for (Timeline.OutcomeMark o : t.outcomes()) {
      out.printf(Locale.ROOT, "  %s  outcome %s/%s: %s, target %s%s%n", o.at(), Printable.escape(o.namespace()),
          Printable.escape(o.name()), o.result(), ReportWriter.cpu(o.targetMilli()),
          o.message().isEmpty() ? "" : ": " + Printable.escape(o.message()));
    }
    for (Timeline.NeighbourMark n : t.neighbours()) {
      out.printf(Locale.ROOT, "  %s  %s/%s %s (request %s)%n", n.at(), Printable.escape(n.namespace()),
          Printable.escape(n.name()), n.arrived() ? "arrived" : "left", ReportWriter.cpu(n.requestMilli()));
    }
  }

  /** A limit for people: 0 is none. */
  private static String limit(long milli) {
    return milli == 0 ? "none" : ReportWriter.cpu(milli);
  }
}
