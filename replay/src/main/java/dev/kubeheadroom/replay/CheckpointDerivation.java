package dev.kubeheadroom.replay;

import dev.kubeheadroom.schemas.NodeCheckpoint;
import dev.kubeheadroom.schemas.NodeCheckpoint.Position;
import dev.kubeheadroom.schemas.Topics;
import dev.kubeheadroom.topology.TopologyListener;
import dev.kubeheadroom.topology.TopologySettings;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;

/**
 * Re-derives checkpoints from the log: one task's history (the global topics and one partition
 * of the node-keyed ones: what a live stream task reads) replayed from its beginning through the
 * production topology, every checkpoint it writes handed to {@code sink}; partitions are
 * independent, so they run in parallel ({@code audit --verify}).
 *
 * <p>A live task reads its co-partitioned topics as they are fetched, not in record-time order,
 * so which records a live checkpoint holds is its cut ({@link NodeCheckpoint#cut}), not its
 * time. Given the cuts of the stored checkpoints, a derivation folds, in record-time order, only
 * the records below the next cut, and takes the checkpoints when every partition has reached
 * it: the same records as the live task, whatever order its fetches came in. Without a cut (a
 * boundary stored without one, or none stored) it takes them where its own stream time crosses
 * the boundary, as the live task does when its topics arrive in time order.
 */
public final class CheckpointDerivation {
  private CheckpointDerivation() {}

  /**
   * Replays {@code history} up to and including {@code until}, each checkpoint taken where the
   * replay's stream time crosses its boundary (the cut it holds: where the replay was then).
   *
   * @param perRecord called after each record (progress)
   * @return the records replayed
   */
  public static long derive(TopicHistory history, Topics topics, Instant until, Consumer<NodeCheckpoint> sink,
      Runnable perRecord) {
    return derive(history, topics, until, Map.of(), sink, perRecord);
  }

  /**
   * As above, but the checkpoints of a boundary in {@code cuts} are taken at that cut: every
   * record below it folded, none at or past it (a partition the cut does not name: every record
   * before the boundary's time).
   */
  public static long derive(TopicHistory history, Topics topics, Instant until, Map<Instant, List<Position>> cuts,
      Consumer<NodeCheckpoint> sink, Runnable perRecord) {
    Instant first = history.peekTime();
    if (first == null) {
      return 0;
    }
    TopologyListener listener = new TopologyListener() {
      @Override
      public void checkpointed(NodeCheckpoint checkpoint) {
        if (!cuts.containsKey(checkpoint.at())) {
          sink.accept(checkpoint);
        }
      }
    };
    NavigableMap<Instant, List<Position>> pending = new TreeMap<>(cuts);
    long records = 0;
    try (ReplayEngine engine = new ReplayEngine(TopologySettings.defaults(topics), listener, first)) {
      Map.Entry<Instant, List<Position>> cut = pending.firstEntry();
      Map<TopicPartition, Long> limits = cut == null ? Map.of() : limits(cut.getValue());
      while (true) {
        ConsumerRecord<String, byte[]> r = history.peekBelow(limits);
        // (a record below a cut is older than its boundary: reached is asked only past that)
        if (cut != null && (r == null || r.timestamp() >= cut.getKey().toEpochMilli())
            && history.reached(limits)) {
          engine.checkpoints(cut.getKey(), cut.getValue()).forEach(sink);
          pending.pollFirstEntry();
          cut = pending.firstEntry();
          limits = cut == null ? Map.of() : limits(cut.getValue());
          continue;
        }
        if (r == null || r.timestamp() > until.toEpochMilli()) {
          break;
        }
        history.nextBelow(limits);
        engine.pipeRaw(r);
        engine.drainDecisions(); // not needed here: do not let them pile up
        records++;
        perRecord.run();
      }
    }
    return records;
  }

  private static Map<TopicPartition, Long> limits(List<Position> cut) {
    Map<TopicPartition, Long> limits = new HashMap<>();
    for (Position p : cut) {
      limits.put(new TopicPartition(p.topic(), p.partition()), p.offset());
    }
    return limits;
  }
}
