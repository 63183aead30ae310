package dev.kubeheadroom.cli;

import dev.kubeheadroom.cli.throttling.ContainerSeries;
import dev.kubeheadroom.cli.throttling.PrometheusOptions;
import dev.kubeheadroom.cli.throttling.ThrottlingQueries;
import dev.kubeheadroom.cli.throttling.WhatIfReport;
import dev.kubeheadroom.replay.Audit;
import dev.kubeheadroom.replay.Explanation;
import dev.kubeheadroom.topology.LiveBooking;
import dev.kubeheadroom.topology.booking.NodeBooking;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code headroom explain NAMESPACE/POD}: the pod's current limit and the arithmetic behind it,
 * from a running topology's live state ({@code --live}), or re-derived now from the event log (the
 * same replay as {@code audit --at now}, from the last checkpoint). With {@code --prometheus}, the
 * throttling what-if follows: per container, how throttled it was over the window and the limit
 * that would have covered its usage, next to the limit it has.
 */
@Command(name = "explain", mixinStandardHelpOptions = true,
    description = {"Explains a pod's current CPU limit: who booked its node, the arithmetic, the last decision and outcome.",
        "With --prometheus, also how throttled each container was and the limit that would have covered it."})
public final class ExplainCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin KafkaOptions kafka;
  @Mixin TopicOptions topicOptions;
  @Mixin PrometheusOptions prometheus;

  @Parameters(paramLabel = "NAMESPACE/POD", description = "The pod to explain.")
  String pod;

  @Option(names = "--live", paramLabel = "URL", defaultValue = "${env:HEADROOM_LIVE_URL}",
      description = "A running topology's metrics endpoint (e.g. https://headroom-topology:8443): "
          + "explain from its live state; falls back to the checkpoint replay when it does not answer.")
  String live;

  @Option(names = "--full-replay",
      description = "Replay from the log's beginning, not from the last checkpoint: a cross-check, slower.")
  boolean fullReplay;

  @Option(names = "--live-insecure", paramLabel = "true|false", arity = "0..1", fallbackValue = "true",
      defaultValue = "${env:HEADROOM_LIVE_INSECURE:-false}",
      description = "Do not verify the --live endpoint's certificate (self-signed; the chart sets it unless "
          + "metrics.certManagerTLS). Env: HEADROOM_LIVE_INSECURE.")
  boolean liveInsecure;

  @Option(names = "--live-ca-file", paramLabel = "PEM", defaultValue = "${env:HEADROOM_LIVE_CA_FILE}",
      description = "Trust these CA certificates for --live (the chart passes its metrics CA with "
          + "metrics.certManagerTLS). Env: HEADROOM_LIVE_CA_FILE.")
  java.nio.file.Path liveCaFile;
  @Mixin ReportOptions report;

  @Option(names = "--live-token", paramLabel = "TOKEN", defaultValue = "${env:HEADROOM_LIVE_TOKEN}",
      description = "Bearer token for --live, allowed get on nonResourceURL /bookings (ClusterRole "
          + "<release>-bookings-reader), e.g. $(kubectl create token NAME). Env: HEADROOM_LIVE_TOKEN.")
  String liveToken;

  @Override
  public Integer call() {
    OutputFormat.notHtml(report.format(), "explain");
    if (prometheus.given()) {
      return explainWithWhatIf();
    }
    if (live != null && !live.isBlank()) {
      String[] parts = namespaceAndName();
      LiveExplain.Answer answer = LiveExplain.ask(live, parts[0], parts[1], liveTls(), liveToken);
      if (answer.explanation().isPresent()) {
        print(answer.explanation().get(), null);
        noteStandby(answer.booking());
        return ExitCodes.OK;
      }
      fallingBack(answer.whyNot());
    }
    AuditCommand audit = audit();
    audit.subject = new AuditCommand.Subject();
    audit.subject.pod = pod;
    return audit.call();
  }

  /**
   * Prometheus first (a wrong URL or a pod it never saw fails in a second, before any replay),
   * then the limits Headroom gave, as without {@code --prometheus}, and the request that would
   * cover the suggestions, probed on the same booking (so before the replay is closed).
   */
  private int explainWithWhatIf() {
    String[] parts = namespaceAndName();
    Duration window = prometheus.window();
    Duration step = prometheus.step();
    Instant end = Instant.now().truncatedTo(ChronoUnit.SECONDS); // whole seconds read better in the output
    Map<String, ContainerSeries> series = ThrottlingQueries.read(prometheus.client(), prometheus.url(), parts[0],
        parts[1], end, window, step);
    Function<Explained, WhatIfReport> whatIf = x -> {
      Explanation e = x.explanation();
      Long podTarget = e.notManagedBecause() == null && e.trace() != null ? e.trace().targetMilli() : null;
      WhatIfReport report = WhatIfReport.of(e.pod(), podTarget, e.config().quantumMilli(), series, prometheus.url(),
          end, window, step);
      return report.withRequest(RequestProbe.of(e, report, x.booking(), x.explainer()));
    };
    if (live != null && !live.isBlank()) {
      LiveExplain.Answer answer = LiveExplain.ask(live, parts[0], parts[1], liveTls(), liveToken);
      if (answer.explanation().isPresent()) {
        Explanation e = answer.explanation().get();
        LiveBooking b = answer.booking();
        print(e, whatIf.apply(new Explained(e, b.booking(), booking -> Explanation.of(booking, b.uid(), b.config(),
            b.namespaces()::get, e.at(), Optional.empty(), Optional.empty()))));
        noteStandby(b);
        return ExitCodes.OK;
      }
      fallingBack(answer.whyNot());
    }
    AuditCommand audit = audit();
    audit.subject = new AuditCommand.Subject();
    audit.subject.pod = pod; // so the replay reads back the pod's last decision from before a checkpoint
    try (Audit replayed = audit.replay(Instant.now())) {
      Explanation e = AuditCommand.explainPod(replayed, "explain", pod);
      print(e, whatIf.apply(new Explained(e, replayed.booking(e.node()),
          booking -> replayed.explain(booking, e.pod().uid()))));
      AuditCommand.noteCheckpointStart(replayed, e, report.output, spec.commandLine().getOut());
    }
    return ExitCodes.OK;
  }

  /** A pod's explanation, its node's booking, and how to explain another booking of that node. */
  private record Explained(Explanation explanation, NodeBooking booking, Function<NodeBooking, Explanation> explainer) {}

  private void print(Explanation e, WhatIfReport whatIf) {
    PrintWriter out = spec.commandLine().getOut();
    OutputFormat format = report.format();
    if (format != OutputFormat.table) {
      AuditViews.PodView view = AuditViews.PodView.of(e);
      StructuredOutput.write(format, whatIf == null ? view : view.withThrottling(whatIf), out);
    } else {
      e.print(out);
      if (whatIf != null) {
        out.println();
        whatIf.print(out);
      }
    }
    out.flush();
  }

  private AuditCommand audit() {
    AuditCommand audit = new AuditCommand();
    audit.spec = spec;
    audit.kafka = kafka;
    audit.topicOptions = topicOptions;
    audit.at = Instant.now().toString();
    audit.report = report;
    audit.fullReplay = fullReplay;
    return audit;
  }

  /** One line when the booking was read from a standby copy: the node's active instance did not answer. */
  private void noteStandby(LiveBooking booking) {
    if (booking.standbyLag() != null) {
      spec.commandLine().getErr().println("headroom explain: read from a standby copy on "
          + (booking.servedBy().isEmpty() ? "an unadvertised instance" : booking.servedBy()) + ", "
          + booking.standbyLag() + " changelog records behind (the node's active instance did not answer)");
      spec.commandLine().getErr().flush();
    }
  }

  /** How {@code --live}'s certificate is checked: not at all, against a CA file, or the JDK's trust. */
  private javax.net.ssl.SSLContext liveTls() {
    if (liveInsecure && liveCaFile != null) {
      throw new UserError("--live-insecure and --live-ca-file: give one");
    }
    return liveInsecure ? HttpTls.trustingEveryone()
        : liveCaFile != null ? HttpTls.trusting("--live-ca-file", liveCaFile) : null;
  }

  private void fallingBack(String whyNot) {
    spec.commandLine().getErr().println("headroom explain: " + whyNot + "; replaying the log instead");
    spec.commandLine().getErr().flush();
  }

  private String[] namespaceAndName() {
    String[] parts = pod.split("/", 2);
    if (parts.length != 2 || parts[0].isEmpty() || parts[1].isEmpty()) {
      throw new UserError(pod + ": expected NAMESPACE/POD");
    }
    return parts;
  }
}
