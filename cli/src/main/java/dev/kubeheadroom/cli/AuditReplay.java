package dev.kubeheadroom.cli;

import dev.kubeheadroom.replay.Audit;
import dev.kubeheadroom.replay.CheckpointCut;
import dev.kubeheadroom.replay.CheckpointReader;
import dev.kubeheadroom.replay.DecisionLookback;
import dev.kubeheadroom.replay.TopicHistory;
import dev.kubeheadroom.schemas.Topics;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.clients.consumer.KafkaConsumer;

/**
 * The replay behind {@code audit --at} and {@code explain}'s fallback: from the last checkpoint at
 * or before the moment when the checkpoints topic holds one (only the events after it are read),
 * else from the log's beginning.
 */
final class AuditReplay {
  private AuditReplay() {}

  static Audit replay(KafkaConnection connection, Topics topics, Instant when, boolean fromCheckpoint,
      PrintWriter err, Progress shown) {
    return replay(connection, topics, when, when, fromCheckpoint, err, shown, Audit.Listener.NONE);
  }

  /**
   * As above, from the last checkpoint at or before {@code cutBefore} (a window's start), each
   * step shown to {@code listener}.
   */
  static Audit replay(KafkaConnection connection, Topics topics, Instant cutBefore, Instant when,
      boolean fromCheckpoint, PrintWriter err, Progress shown, Audit.Listener listener) {
    Optional<CheckpointCut> cut = Optional.empty();
    if (fromCheckpoint) {
      try (KafkaConsumer<String, byte[]> consumer = AuditCommand.consumer(connection,
          CheckpointReader.consumerSettings())) {
        cut = new CheckpointReader(consumer, AuditCommand.KAFKA_TIMEOUT).latest(topics.checkpoints(), cutBefore);
      }
    }
    if (cut.isEmpty()) {
      try (TopicHistory history = new TopicHistory(AuditCommand.consumer(connection), Audit.inputTopics(topics),
          AuditCommand.KAFKA_TIMEOUT)) {
        Instant first = history.peekTime();
        Audit audit = Audit.replay(history, topics, when, (n, t) -> shown.between(first, t, when), listener);
        shown.done();
        return audit;
      }
    }
    Instant at = cut.get().at();
    err.printf(Locale.ROOT, "headroom audit: starting from the checkpoint at %s (%,d nodes)%n", at,
        cut.get().nodes().size());
    err.flush();
    try (TopicHistory history = new TopicHistory(AuditCommand.consumer(connection), Audit.inputTopics(topics),
        AuditCommand.KAFKA_TIMEOUT, Audit.scope(cut.get(), topics))) {
      Audit audit = Audit.resume(cut.get(), history, topics, when, (n, t) -> shown.between(at, t, when),
          listener);
      shown.done();
      return audit;
    }
  }

  /**
   * After a start from a checkpoint: those of {@code uids} (pods on {@code node}) that no decision
   * since the checkpoint changed get their last decision from before it, read back from the
   * decisions topic (DecisionLookback, bounded); a pod it does not find keeps the note that says so.
   */
  static void recall(KafkaConnection connection, Topics topics, Audit audit, String node, Set<String> uids,
      PrintWriter err) {
    Instant cut = audit.resumedFrom().orElse(null);
    Set<String> wanted = new java.util.TreeSet<>(uids);
    wanted.retainAll(audit.undecided(node));
    if (cut == null || wanted.isEmpty()) {
      return;
    }
    DecisionLookback.Found found;
    try (KafkaConsumer<String, byte[]> consumer = AuditCommand.consumer(connection, DecisionLookback.consumerSettings())) {
      found = new DecisionLookback(consumer, AuditCommand.KAFKA_TIMEOUT).find(topics.decisions(), node, wanted, cut);
    }
    audit.recall(found.byPod());
    err.printf(Locale.ROOT, "headroom audit: node %s: %d of %d pods not decided since the checkpoint found their"
        + " last decision before it (%,d decision records read back%s)%n", node, found.byPod().size(), wanted.size(),
        found.records(), found.complete() ? "" : ", the look-back's bound");
    err.flush();
  }
}
