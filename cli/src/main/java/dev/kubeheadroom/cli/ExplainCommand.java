package dev.kubeheadroom.cli;

import dev.kubeheadroom.replay.Audit;
import java.time.Instant;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code headroom explain NAMESPACE/POD}: the pod's current limit and the arithmetic behind it,
 * re-derived now from the event log (the same replay as {@code audit --at now}).
 */
@Command(name = "explain", mixinStandardHelpOptions = true,
    description = "Explains a pod's current CPU limit: who booked its node, the arithmetic, the last decision and outcome.")
public final class ExplainCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin KafkaOptions kafka;
  @Mixin TopicOptions topicOptions;

  @Parameters(paramLabel = "NAMESPACE/POD", description = "The pod to explain.")
  String pod;

  @Option(names = {"-o", "--output"}, paramLabel = "table|json|yaml", description = OutputFormat.DESCRIPTION)
  OutputFormat output;

  @Option(names = "--progress", description = Progress.DESCRIPTION)
  boolean progress;

  @Override
  public Integer call() {
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
