package dev.kubeheadroom.replay;

import dev.kubeheadroom.schemas.NodeCheckpoint;
import dev.kubeheadroom.schemas.Topics;
import dev.kubeheadroom.topology.TopologyListener;
import dev.kubeheadroom.topology.TopologySettings;
import java.time.Instant;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Re-derives checkpoints from the log: one task's history (the global topics and one partition
 * of the node-keyed ones: what a live stream task reads) replayed from its beginning through the
 * production topology, every checkpoint it writes handed to {@code sink}. A replay per partition
 * sees the stream time its live task saw, so it writes the same checkpoints; partitions are
 * independent, so they run in parallel ({@code audit --verify}).
 */
public final class CheckpointDerivation {
  private CheckpointDerivation() {}

  /**
   * Replays {@code history} up to and including {@code until}.
   *
   * @param perRecord called after each record (progress)
   * @return the records replayed
   */
  public static long derive(TopicHistory history, Topics topics, Instant until, Consumer<NodeCheckpoint> sink,
      Runnable perRecord) {
    Instant first = history.peekTime();
    if (first == null) {
      return 0;
    }
    TopologyListener listener = new TopologyListener() {
      @Override
      public void checkpointed(NodeCheckpoint checkpoint) {
        sink.accept(checkpoint);
      }
    };
    long records = 0;
    try (ReplayEngine engine = new ReplayEngine(TopologySettings.defaults(topics), listener, first)) {
      Instant next;
      while ((next = history.peekTime()) != null && !next.isAfter(until)) {
        ConsumerRecord<String, byte[]> r = history.next();
        engine.pipeRaw(r.topic(), r.key(), r.value(), next);
        engine.drainDecisions(); // not needed here: do not let them pile up
        records++;
        perRecord.run();
      }
    }
    return records;
  }
}
