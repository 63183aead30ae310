package dev.kubeheadroom.cli;

import dev.kubeheadroom.replay.Audit;
import dev.kubeheadroom.replay.DecisionVerifier;
import dev.kubeheadroom.replay.Explanation;
import dev.kubeheadroom.replay.TopicHistory;
import dev.kubeheadroom.schemas.JsonCodec;
import dev.kubeheadroom.schemas.NodeDecision;
import dev.kubeheadroom.schemas.SchemaException;
import dev.kubeheadroom.schemas.Topics;
import dev.kubeheadroom.topology.booking.NodeBooking;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
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
    description = {"Replays the event log: the limit in force at a past moment, and why.",
        "--at with --pod or --node; or --verify that every decision in [--from, --to]",
        "re-derives from the inputs it carries."})
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

  @Option(names = "--from", paramLabel = "RFC3339") String from;
  @Option(names = "--to", paramLabel = "RFC3339") String to;

  @Override
  public Integer call() {
    if (verify) {
      if (from == null || to == null) {
        throw new UserError("--verify needs --from and --to");
      }
      return verify(Times.parse("--from", from), Times.parse("--to", to));
    }
    if (at == null) {
      throw new UserError("give --at RFC3339 (with --pod or --node), or --verify --from --to");
    }
    Instant when = Times.parse("--at", at);
    try (Audit audit = replay(when)) {
      PrintWriter out = spec.commandLine().getOut();
      if (subject != null && subject.pod != null) {
        printPod(audit, subject.pod, out);
      } else if (subject != null && subject.node != null) {
        printNode(audit, subject.node, out);
      } else {
        out.printf(Locale.ROOT, "Replayed %,d records up to %s: %,d decisions, %d nodes.%n",
            audit.records(), when, audit.decisions(), audit.nodes().size());
        out.flush();
      }
    }
    return 0;
  }

  /** Replays the input topics up to {@code when}, with progress on stderr. */
  Audit replay(Instant when) {
    if (when.isAfter(Instant.now().plus(Duration.ofMinutes(1)))) {
      throw new UserError("--at " + when + " is in the future");
    }
    PrintWriter err = spec.commandLine().getErr();
    KafkaConnection connection = kafka.connect(System.getenv());
    try (connection) {
      Topics topics = topicOptions.topics();
      try (TopicHistory history = new TopicHistory(consumer(connection), Audit.inputTopics(topics), KAFKA_TIMEOUT)) {
        return Audit.replay(history, topics, when, (n, t) -> {
          err.printf(Locale.ROOT, "headroom audit: replayed %,d records (at %s)%n", n, t);
          err.flush();
        });
      } catch (IllegalArgumentException | IllegalStateException e) {
        throw new UserError(e.getMessage());
      }
    }
  }

  private static void printPod(Audit audit, String ref, PrintWriter out) {
    String[] parts = ref.split("/", 2);
    if (parts.length != 2 || parts[0].isEmpty() || parts[1].isEmpty()) {
      throw new UserError("--pod " + ref + ": expected NAMESPACE/NAME");
    }
    Map.Entry<String, String> where = audit.locate(parts[0], parts[1])
        .orElseThrow(() -> new UserError("pod " + ref + " was not on any node at " + audit.at()));
    Explanation e = audit.explain(where.getKey(), where.getValue());
    e.print(out);
  }

  private static void printNode(Audit audit, String node, PrintWriter out) {
    NodeBooking booking = audit.booking(node);
    if (booking.snapshot() == null) {
      throw new UserError("node " + node + " was not known at " + audit.at());
    }
    out.printf(Locale.ROOT, "Node %s at %s: allocatable %dm, %d pods%n", node, audit.at(),
        booking.snapshot().allocatableMilli(), booking.pods().size());
    for (String uid : booking.pods().keySet()) {
      out.println();
      audit.explain(node, uid).print(out);
    }
    out.flush();
  }

  private int verify(Instant start, Instant end) {
    if (end.isBefore(start)) {
      throw new UserError("--to " + end + " is before --from " + start);
    }
    PrintWriter out = spec.commandLine().getOut();
    long checked = 0;
    long differing = 0;
    try (KafkaConnection connection = kafka.connect(System.getenv());
        TopicHistory history = new TopicHistory(consumer(connection),
            List.of(topicOptions.topics().decisions()), KAFKA_TIMEOUT)) {
      Instant first = history.peekTime();
      if (first == null || end.isBefore(first)) {
        throw new UserError("[" + start + ", " + end + "] holds no retained decisions"
            + (first == null ? "" : "; the retained history starts at " + first));
      }
      Map<String, List<NodeDecision>> pending = new HashMap<>(); // parts read so far, by node
      ConsumerRecord<String, byte[]> r;
      while ((r = history.next()) != null) {
        Instant t = Instant.ofEpochMilli(r.timestamp());
        if (t.isAfter(end)) {
          break;
        }
        if (t.isBefore(start) || r.value() == null) {
          continue;
        }
        NodeDecision d;
        try {
          d = JsonCodec.decode(r.value(), NodeDecision.class);
        } catch (SchemaException e) {
          out.printf("%s partition %d offset %d: unreadable (%s)%n", r.topic(), r.partition(), r.offset(), e.getMessage());
          differing++;
          continue;
        }
        // A decision split into parts (topology DESIGN.md) is re-derived once all are read.
        List<NodeDecision> parts = pending.computeIfAbsent(d.node(), n -> new ArrayList<>());
        parts.add(d);
        if (!d.complete()) {
          continue;
        }
        pending.remove(d.node());
        try {
          d = NodeDecision.join(parts);
        } catch (IllegalArgumentException e) {
          out.printf("%s partition %d offset %d: %s%n", r.topic(), r.partition(), r.offset(), e.getMessage());
          differing++;
          continue;
        }
        checked++;
        List<String> problems = DecisionVerifier.verify(d);
        if (!problems.isEmpty()) {
          differing++;
          out.printf("%s node %s%s (offset %d):%n", d.at(), d.node(),
              d.pool() == null ? "" : " in pool " + d.pool(), r.offset());
          problems.forEach(p -> out.println("  " + p));
        }
      }
    } catch (IllegalStateException e) {
      throw new UserError(e.getMessage());
    }
    out.printf(Locale.ROOT, "%d decisions in [%s, %s] re-derived: %d differ%n", checked, start, end, differing);
    out.flush();
    return differing == 0 ? 0 : 3;
  }

  static KafkaConsumer<String, byte[]> consumer(KafkaConnection connection) {
    Map<String, Object> config = connection.clientConfig();
    config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    config.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5000);
    return new KafkaConsumer<>(config, new StringDeserializer(), new ByteArrayDeserializer());
  }
}
