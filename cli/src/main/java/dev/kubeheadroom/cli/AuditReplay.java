package dev.kubeheadroom.cli;

import dev.kubeheadroom.replay.Audit;
import dev.kubeheadroom.replay.CheckpointCut;
import dev.kubeheadroom.replay.CheckpointReader;
import dev.kubeheadroom.replay.TopicHistory;
import dev.kubeheadroom.schemas.Topics;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
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
    Optional<CheckpointCut> cut = Optional.empty();
    if (fromCheckpoint) {
      try (KafkaConsumer<String, byte[]> consumer = AuditCommand.consumer(connection,
          CheckpointReader.consumerSettings())) {
        cut = new CheckpointReader(consumer, AuditCommand.KAFKA_TIMEOUT).latest(topics.checkpoints(), when);
      }
    }
    if (cut.isEmpty()) {
      try (TopicHistory history = new TopicHistory(AuditCommand.consumer(connection), Audit.inputTopics(topics),
          AuditCommand.KAFKA_TIMEOUT)) {
        Instant first = history.peekTime();
        Audit audit = Audit.replay(history, topics, when, (n, t) -> shown.between(first, t, when));
        shown.done();
        return audit;
      }
    }
    Instant at = cut.get().at();
    err.printf(Locale.ROOT, "headroom audit: starting from the checkpoint at %s (%,d nodes)%n", at,
        cut.get().nodes().size());
    err.flush();
    Map<String, Instant> from = new HashMap<>();
    topics.nodeKeyed().forEach(t -> from.put(t, at));
    try (TopicHistory history = new TopicHistory(AuditCommand.consumer(connection), Audit.inputTopics(topics),
        AuditCommand.KAFKA_TIMEOUT, new TopicHistory.Scope(from, tp -> true))) {
      Audit audit = Audit.resume(cut.get(), history, topics, when, (n, t) -> shown.between(at, t, when));
      shown.done();
      return audit;
    }
  }
}
