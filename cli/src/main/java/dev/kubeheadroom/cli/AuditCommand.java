package dev.kubeheadroom.cli;

import dev.kubeheadroom.replay.Audit;
import dev.kubeheadroom.replay.Explanation;
import dev.kubeheadroom.topology.booking.NodeBooking;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code headroom audit}: what limit was in force at a moment, and why, re-derived by replaying the
 * retained event log through the production topology; or {@code --verify} that every decision in
 * a window re-derives from the inputs it carries.
 */
@Command(name = "audit", mixinStandardHelpOptions = true,
    // One element per sentence: picocli wraps each element on its own.
    description = {"Replays the event log: the limit in force at a past moment, and why.",
        "With --at and --pod or --node, replays from the last checkpoint 5 minutes or more before that moment "
            + "(with --node, that node's checkpoint and events only; with --pod, those of the nodes it was on).",
        "With --from and --to and --pod or --node, shows how the limits moved over that window and why; "
            + "-o html draws it as one self-contained page.",
        "With --verify, checks that every decision and checkpoint in [--from, --to] re-derives "
            + "from the log (in parallel)."})
public final class AuditCommand implements Callable<Integer> {
  static final Duration KAFKA_TIMEOUT = Duration.ofSeconds(30);

  @Spec CommandSpec spec;
  @Mixin KafkaOptions kafka;
  @Mixin TopicOptions topicOptions;

  @Option(names = "--at", paramLabel = "RFC3339", description = "The moment to audit.")
  String at;

  @ArgGroup(exclusive = true)
  Subject subject;

  static final class Subject {
    @Option(names = "--pod", paramLabel = "NAMESPACE/NAME", description = "One pod's limit and arithmetic.")
    String pod;

    @Option(names = "--node", paramLabel = "NODE", description = "Every pod on one node.")
    String node;
  }

  @Option(names = "--verify", description = "Re-derive every decision in [--from, --to].")
  boolean verify;

  @Option(names = "--full-replay",
      description = "Replay from the log's beginning, not from the last checkpoint before --at: a cross-check.")
  boolean fullReplay;

  @Option(names = "--from", paramLabel = "RFC3339",
      description = "The window's start (with --to: for --verify, or the limits over time of --pod or --node).")
  String from;

  @Option(names = "--to", paramLabel = "RFC3339", description = "The window's end.")
  String to;

  @Mixin ReportOptions report;

  @Override
  public Integer call() {
    if (verify) {
      if (from == null || to == null) {
        throw new UserError("--verify needs --from and --to");
      }
      OutputFormat.notHtml(report.format(), "audit --verify");
      return verify(Times.parse("--from", from), Times.parse("--to", to));
    }
    if (at == null && (from != null || to != null)) {
      return window();
    }
    if (at == null) {
      throw new UserError("give --at RFC3339 (with --pod or --node), or --verify --from --to");
    }
    Instant when = Times.parse("--at", at);
    OutputFormat format = OutputFormat.notHtml(report.format(), "audit --at");
    try (Audit audit = replay(when)) {
      PrintWriter out = spec.commandLine().getOut();
      if (subject != null && subject.pod != null) {
        printPod(audit, subject.pod, format, out);
      } else if (subject != null && subject.node != null) {
        printNode(audit, subject.node, format, out);
      } else if (format != OutputFormat.table) {
        StructuredOutput.write(format, new AuditViews.ReplaySummary(when, audit.records(), audit.decisions(),
            audit.nodes().size()), out);
      } else {
        out.printf(Locale.ROOT, "Replayed %,d records up to %s: %,d decisions, %d nodes.%n",
            audit.records(), when, audit.decisions(), audit.nodes().size());
        out.flush();
      }
    }
    return ExitCodes.OK;
  }

  /** {@code --pod|--node} over {@code [--from, --to]}: {@link AuditWindow}. */
  private int window() {
    if (from == null || to == null) {
      throw new UserError("--from and --to go together: the window to show");
    }
    var drawn = AuditWindow.subject(subject == null ? null : subject.pod, subject == null ? null : subject.node);
    Instant start = Times.parse("--from", from);
    Instant end = Times.parse("--to", to);
    PrintWriter err = spec.commandLine().getErr();
    try (KafkaConnection connection = kafka.connect(System.getenv())) {
      AuditWindow.print(AuditWindow.record(connection, topicOptions.topics(), drawn, start, end, !fullReplay, err,
          report.progress(err, spec.name())), report.format(), spec.commandLine().getOut());
    }
    return ExitCodes.OK;
  }

  /** Replays the input topics up to {@code when}, with progress on stderr. */
  Audit replay(Instant when) {
    if (when.isAfter(Instant.now().plus(Duration.ofMinutes(1)))) {
      throw new UserError("--at " + when + " is in the future");
    }
    PrintWriter err = spec.commandLine().getErr();
    KafkaConnection connection = kafka.connect(System.getenv());
    try (connection) {
      Optional<Audit> alone = alone(connection, when, err);
      Audit audit = alone.isPresent() ? alone.get() : AuditReplay.replay(connection, topicOptions.topics(), when,
          !fullReplay, err, report.progress(err, spec.name()));
      try {
        recallEarlierDecisions(connection, audit, err);
      } catch (RuntimeException e) {
        audit.close();
        throw e;
      }
      return audit;
    } catch (IllegalArgumentException | IllegalStateException e) {
      throw new UserError(e.getMessage());
    }
  }

  /**
   * The replay of only the node asked about, or of the nodes the pod asked about was on, when it
   * can answer (AuditReplay.replayNode, replayPod); else empty: every node is replayed.
   */
  private Optional<Audit> alone(KafkaConnection connection, Instant when, PrintWriter err) {
    if (fullReplay || subject == null) {
      return Optional.empty();
    }
    if (subject.node != null) {
      return AuditReplay.replayNode(connection, topicOptions.topics(), when, subject.node, err,
          report.progress(err, spec.name()));
    }
    String[] parts = subject.pod.split("/", 2);
    if (parts.length != 2 || parts[0].isEmpty() || parts[1].isEmpty()) {
      throw new UserError("--pod " + subject.pod + ": expected NAMESPACE/NAME");
    }
    return AuditReplay.replayPod(connection, topicOptions.topics(), when, parts[0], parts[1], err,
        report.progress(err, spec.name()));
  }

  /** The pod or the node asked about: their last decisions and outcomes from before a checkpoint start. */
  private void recallEarlierDecisions(KafkaConnection connection, Audit audit, PrintWriter err) {
    if (subject != null && subject.node != null) {
      AuditReplay.complete(connection, topicOptions.topics(), audit, subject.node,
          audit.booking(subject.node).pods().keySet(), err);
    } else if (subject != null && subject.pod != null) {
      String[] parts = subject.pod.split("/", 2);
      if (parts.length == 2) {
        audit.locate(parts[0], parts[1]).ifPresent(where ->
            AuditReplay.complete(connection, topicOptions.topics(), audit, where.getKey(), Set.of(where.getValue()),
                err));
      }
    }
  }

  private static void printPod(Audit audit, String ref, OutputFormat format, PrintWriter out) {
    Explanation e = explainPod(audit, "--pod", ref);
    if (format != OutputFormat.table) {
      StructuredOutput.write(format, AuditViews.PodView.of(e), out);
      return;
    }
    e.print(out);
    noteCheckpointStart(audit, e, null, out);
  }

  /**
   * After a replay from a checkpoint, a pod no replayed decision changed has its last decision
   * from the decisions topic (AuditReplay.complete), the one the live topology recorded, not one
   * the replay re-derived: say so, in the table output.
   */
  static void noteCheckpointStart(Audit audit, Explanation e, OutputFormat output, PrintWriter out) {
    if (OutputFormat.orTable(output) != OutputFormat.table) {
      return;
    }
    audit.resumedFrom().filter(at -> audit.recalled(e.pod().uid())).ifPresent(at -> {
      out.printf(Locale.ROOT, "(replayed from the checkpoint at %s: this last decision was read back from the"
          + " decisions topic)%n", at);
      out.flush();
    });
  }

  /** The explanation of {@code ref} (NAMESPACE/NAME, given as {@code option}) at the replay's moment. */
  static Explanation explainPod(Audit audit, String option, String ref) {
    String[] parts = ref.split("/", 2);
    if (parts.length != 2 || parts[0].isEmpty() || parts[1].isEmpty()) {
      throw new UserError(option + " " + ref + ": expected NAMESPACE/NAME");
    }
    Map.Entry<String, String> where = audit.locate(parts[0], parts[1])
        .orElseThrow(() -> new UserError("pod " + ref + " was not on any node at " + audit.at()));
    return audit.explain(where.getKey(), where.getValue());
  }

  private static void printNode(Audit audit, String node, OutputFormat format, PrintWriter out) {
    NodeBooking booking = audit.booking(node);
    if (booking.snapshot() == null) {
      throw new UserError("node " + node + " was not known at " + audit.at());
    }
    if (format != OutputFormat.table) {
      StructuredOutput.write(format, new AuditViews.NodeView(node, audit.at(), booking.snapshot().allocatableMilli(),
          booking.pods().keySet().stream().map(uid -> AuditViews.PodView.of(audit.explain(node, uid))).toList()), out);
      return;
    }
    out.printf(Locale.ROOT, "Node %s at %s: allocatable %dm, %d pods%n", node, audit.at(),
        booking.snapshot().allocatableMilli(), booking.pods().size());
    for (String uid : booking.pods().keySet()) {
      out.println();
      Explanation e = audit.explain(node, uid);
      e.print(out);
      noteCheckpointStart(audit, e, null, out);
    }
    out.flush();
  }

  private int verify(Instant start, Instant end) {
    if (end.isBefore(start)) {
      throw new UserError("--to " + end + " is before --from " + start);
    }
    PrintWriter out = spec.commandLine().getOut();
    OutputFormat format = report.format();
    AuditVerify.Result result;
    try (KafkaConnection connection = kafka.connect(System.getenv())) {
      result = new AuditVerify(connection, topicOptions.topics(), start, end)
          .run(report.progress(spec.commandLine().getErr(), spec.name()),
              Runtime.getRuntime().availableProcessors());
    } catch (IllegalStateException e) {
      throw new UserError(e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new UserError("interrupted");
    }
    long differing = result.decisionsDiffering() + result.checkpointsDiffering();
    if (format != OutputFormat.table) {
      StructuredOutput.write(format, new AuditViews.VerifyReport(start, end, result.decisions(),
          result.decisionsDiffering(), result.checkpoints(), result.checkpointsDiffering(),
          result.checkpointsUnverifiable(), result.lines()), out);
    } else {
      result.lines().forEach(out::println);
      out.printf(Locale.ROOT, "%d decisions in [%s, %s] re-derived: %d differ%n", result.decisions(), start, end,
          result.decisionsDiffering());
      out.printf(Locale.ROOT, "%d checkpoints in [%s, %s] re-derived from the log: %d differ%s%n",
          result.checkpoints(), start, end, result.checkpointsDiffering(), result.checkpointsUnverifiable() == 0 ? ""
              : String.format(Locale.ROOT, ", %d not verifiable exactly (read order not recorded)",
                  result.checkpointsUnverifiable()));
    }
    out.flush();
    return differing == 0 ? ExitCodes.OK : ExitCodes.BLOCKED;
  }

  static KafkaConsumer<String, byte[]> consumer(KafkaConnection connection) {
    return consumer(connection, Map.of());
  }

  /** The audit's consumer with {@code settings} on top (e.g. the checkpoint reader's fetch sizes). */
  static KafkaConsumer<String, byte[]> consumer(KafkaConnection connection, Map<String, Object> settings) {
    Map<String, Object> config = connection.clientConfig();
    config.putAll(settings);
    config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    config.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5000);
    return new KafkaConsumer<>(config, new StringDeserializer(), new ByteArrayDeserializer());
  }
}
