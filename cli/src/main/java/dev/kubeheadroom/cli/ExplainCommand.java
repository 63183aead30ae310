package dev.kubeheadroom.cli;

import dev.kubeheadroom.replay.Audit;
import java.time.Instant;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import java.io.PrintWriter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code headroom explain NAMESPACE/POD}: the pod's current limit and the arithmetic behind it,
 * from a running topology's live state ({@code --live}), or re-derived now from the event log (the
 * same replay as {@code audit --at now}, from the last checkpoint).
 */
@Command(name = "explain", mixinStandardHelpOptions = true,
    description = "Explains a pod's current CPU limit: who booked its node, the arithmetic, the last decision and outcome.")
public final class ExplainCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin KafkaOptions kafka;
  @Mixin TopicOptions topicOptions;

  @Parameters(paramLabel = "NAMESPACE/POD", description = "The pod to explain.")
  String pod;

  @Option(names = "--live", paramLabel = "URL", defaultValue = "${env:HEADROOM_LIVE_URL}",
      description = {"A running topology's metrics endpoint (e.g. https://headroom-topology:8443): explain from",
          "its live state; falls back to the checkpoint replay when it does not answer."})
  String live;

  @Option(names = "--live-insecure", description = "Do not verify the --live endpoint's certificate (self-signed).")
  boolean liveInsecure;
  @Option(names = {"-o", "--output"}, paramLabel = "table|json|yaml", description = OutputFormat.DESCRIPTION)
  OutputFormat output;

  @Option(names = "--progress", description = Progress.DESCRIPTION)
  boolean progress;

  @Override
  public Integer call() {
    if (live != null && !live.isBlank()) {
      String[] parts = pod.split("/", 2);
      if (parts.length != 2 || parts[0].isEmpty() || parts[1].isEmpty()) {
        throw new UserError(pod + ": expected NAMESPACE/POD");
      }
      LiveExplain.Answer answer = LiveExplain.ask(live, parts[0], parts[1], liveInsecure);
      if (answer.explanation().isPresent()) {
        PrintWriter out = spec.commandLine().getOut();
        OutputFormat format = OutputFormat.orTable(output);
        if (format != OutputFormat.table) {
          StructuredOutput.write(format, AuditViews.PodView.of(answer.explanation().get()), out);
        } else {
          answer.explanation().get().print(out);
        }
        out.flush();
        return ExitCodes.OK;
      }
      spec.commandLine().getErr().println("headroom explain: " + answer.whyNot() + "; replaying the log instead");
      spec.commandLine().getErr().flush();
    }
    AuditCommand audit = new AuditCommand();
    audit.spec = spec;
    audit.kafka = kafka;
    audit.topicOptions = topicOptions;
    audit.at = Instant.now().toString();
    audit.subject = new AuditCommand.Subject();
    audit.subject.pod = pod;
    audit.output = output;
    audit.progress = progress;
    return audit.call();
  }
}
