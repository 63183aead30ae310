package dev.kubeheadroom.cli;

import dev.kubeheadroom.replay.Audit;
import dev.kubeheadroom.replay.CheckpointCut;
import dev.kubeheadroom.replay.CheckpointReader;
import dev.kubeheadroom.replay.NodeLookback;
import dev.kubeheadroom.replay.PodPlaces;
import dev.kubeheadroom.replay.StoredCut;
import dev.kubeheadroom.replay.TopicHistory;
import dev.kubeheadroom.schemas.Topics;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.clients.consumer.KafkaConsumer;

/**
 * The replay behind {@code audit --at} and {@code explain}'s fallback: from the last checkpoint at
 * or before the moment less {@link Audit#SETTLE} when the checkpoints topic holds one (only the
 * events after it are read), else from the log's beginning.
 */
final class AuditReplay {
  private AuditReplay() {}

  static Audit replay(KafkaConnection connection, Topics topics, Instant when, boolean fromCheckpoint,
      PrintWriter err, Progress shown) {
    return replay(connection, topics, when, when, fromCheckpoint, err, shown, Audit.Listener.NONE);
  }

  /**
   * As above, from the last checkpoint {@link Audit#SETTLE} or more before {@code cutBefore} (a
   * window's start), each step shown to {@code listener}.
   */
  static Audit replay(KafkaConnection connection, Topics topics, Instant cutBefore, Instant when,
      boolean fromCheckpoint, PrintWriter err, Progress shown, Audit.Listener listener) {
    Optional<CheckpointCut> cut = Optional.empty();
    if (fromCheckpoint) {
      try (KafkaConsumer<String, byte[]> consumer = AuditCommand.consumer(connection,
          CheckpointReader.consumerSettings())) {
        cut = new CheckpointReader(consumer, AuditCommand.KAFKA_TIMEOUT).latest(topics.checkpoints(),
            cutBefore.minus(Audit.SETTLE));
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
   * {@code audit --at --node}: the node's replay alone, from its own checkpoint ({@link
   * CheckpointReader#latestOf}: one checkpoint decoded, only its records folded), when
   * the checkpoints topic holds one and no pod on the node at the moment is in a gang (its limit
   * can follow members on other nodes); else empty: the whole cluster is replayed.
   */
  static Optional<Audit> replayNode(KafkaConnection connection, Topics topics, Instant when, String node,
      PrintWriter err, Progress shown) {
    Optional<CheckpointCut> cut;
    try (KafkaConsumer<String, byte[]> consumer = AuditCommand.consumer(connection,
        CheckpointReader.consumerSettings())) {
      cut = new CheckpointReader(consumer, AuditCommand.KAFKA_TIMEOUT).latestOf(topics.checkpoints(),
          when.minus(Audit.SETTLE), node);
    }
    if (cut.isEmpty()) {
      return Optional.empty();
    }
    err.printf(Locale.ROOT, "headroom audit: starting from node %s's checkpoint at %s%n", node, cut.get().at());
    err.flush();
    Instant at = cut.get().at();
    Audit audit;
    try (TopicHistory history = new TopicHistory(AuditCommand.consumer(connection), Audit.inputTopics(topics),
        AuditCommand.KAFKA_TIMEOUT, Audit.scope(cut.get(), topics))) {
      audit = Audit.resumeNode(cut.get(), history, topics, when, node, (n, t) -> shown.between(at, t, when));
      shown.done();
    }
    return withoutGangs(audit, node, err);
  }

  /**
   * {@code audit --at --pod} and {@code explain}: the replay of only the nodes the pod can be on
   * ({@link PodPlaces}: the checkpoints holding it and the nodes of its snapshots past the cut),
   * from the last checkpoint, when the checkpoints topic holds one and no pod on the pod's node at
   * the moment is in a gang; else empty: the whole cluster is replayed.
   */
  static Optional<Audit> replayPod(KafkaConnection connection, Topics topics, Instant when, String namespace,
      String name, PrintWriter err, Progress shown) {
    Optional<StoredCut> stored;
    try (KafkaConsumer<String, byte[]> consumer = AuditCommand.consumer(connection,
        CheckpointReader.consumerSettings())) {
      stored = new CheckpointReader(consumer, AuditCommand.KAFKA_TIMEOUT).latestStored(topics.checkpoints(),
          when.minus(Audit.SETTLE));
    }
    if (stored.isEmpty()) {
      return Optional.empty();
    }
    Instant at = stored.get().at();
    err.printf(Locale.ROOT, "headroom audit: starting from the checkpoint at %s, only the nodes pod %s/%s was on%n",
        at, namespace, name);
    err.flush();
    Audit audit = new PodPlaces(namespace, name).replay(stored.get(), () -> AuditCommand.consumer(connection),
        AuditCommand.KAFKA_TIMEOUT, topics, when, (n, t) -> shown.between(at, t, when));
    shown.done();
    Optional<String> node = audit.locate(namespace, name).map(Map.Entry::getKey);
    return node.isEmpty() ? Optional.of(audit) : withoutGangs(audit, node.get(), err);
  }

  /**
   * {@code audit}, unless {@code node} holds gang members (their limits can follow members on
   * nodes it did not replay): then closed, and empty.
   */
  private static Optional<Audit> withoutGangs(Audit audit, String node, PrintWriter err) {
    if (audit.inGang(node)) {
      audit.close();
      err.printf(Locale.ROOT, "headroom audit: node %s holds gang members: replaying every node%n", node);
      err.flush();
      return Optional.empty();
    }
    return Optional.of(audit);
  }

  /**
   * After a start from a checkpoint: {@code uids} (pods on {@code node}) get their last decision
   * and outcome read back from the node's partitions of the decisions and outcomes topics
   * ({@link Audit#complete}), so the answer is the one the whole log's replay gives.
   */
  static void complete(KafkaConnection connection, Topics topics, Audit audit, String node, Set<String> uids,
      PrintWriter err) {
    if (audit.resumedFrom().isEmpty()) {
      return;
    }
    Optional<Audit.Recalled> found;
    try (KafkaConsumer<String, byte[]> consumer = AuditCommand.consumer(connection, NodeLookback.consumerSettings())) {
      found = audit.complete(new NodeLookback(consumer, AuditCommand.KAFKA_TIMEOUT), topics, node, uids);
    }
    found.ifPresent(r -> {
      err.printf(Locale.ROOT, "headroom audit: node %s: of the pods no replayed decision changed, %d of %d found"
          + " their last decision in the decisions topic; of those no replayed outcome concerned, %d of %d found"
          + " theirs from before the checkpoint (%,d records read back)%n", node, r.decided(), r.undecided(),
          r.settled(), r.unsettled(), r.records());
      err.flush();
    });
  }
}
