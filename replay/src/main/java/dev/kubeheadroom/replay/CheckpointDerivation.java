package dev.kubeheadroom.replay;

import dev.kubeheadroom.schemas.NodeCheckpoint;
import dev.kubeheadroom.schemas.NodeCheckpoint.Position;
import dev.kubeheadroom.schemas.NodeCheckpoint.Run;
import dev.kubeheadroom.schemas.Topics;
import dev.kubeheadroom.topology.TopologyListener;
import dev.kubeheadroom.topology.TopologySettings;
import java.time.Instant;
import java.util.ArrayList;
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
 * the boundary, as the live task does when its topics arrive in time order. Where the stored
 * checkpoints also record each node's read order since the previous boundary, a node's records
 * are folded in that order ({@link #deriveAt}), so events of one node that do not commute fold as
 * the live task folded them.
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
    Map<Instant, Boundary> boundaries = new HashMap<>();
    cuts.forEach((at, cut) -> boundaries.put(at, new Boundary(cut, Map.of())));
    return deriveAt(history, topics, until, boundaries, sink, perRecord);
  }

  /**
   * A stored boundary: its cut, and per node the order its task read the node's records in since
   * the previous boundary ({@link NodeCheckpoint#order}; a node without one is folded by time).
   */
  public record Boundary(List<Position> cut, Map<String, List<Run>> orders) {
    public Boundary {
      cut = List.copyOf(cut);
      orders = Map.copyOf(orders);
    }
  }

  /** What a re-derivation gives for one checkpoint, and whether it can stand for the live one exactly. */
  @FunctionalInterface
  public interface Sink {
    /**
     * @param orderUnknown the boundary's cut is stored without this node's read order (written
     *     before format 5, or in the interval a task was upgraded from a build that kept it in
     *     memory only) and the node's records of the interval came from more than one topic: the
     *     fold by record time may not be the task's, so a difference may be only read order
     */
    void accept(NodeCheckpoint checkpoint, boolean orderUnknown);
  }

  /** As below, without telling which checkpoints' read order is unknown. */
  public static long deriveAt(TopicHistory history, Topics topics, Instant until, Map<Instant, Boundary> cuts,
      Consumer<NodeCheckpoint> sink, Runnable perRecord) {
    return deriveAt(history, topics, until, cuts, (c, unknown) -> sink.accept(c), perRecord);
  }

  /**
   * As above, each node's records between two stored cuts folded in the order its task read them
   * where the boundary records it: the records below the cut are taken in record-time order, and
   * each node's among them put back in its own read order in the places they took (nodes fold
   * independently: a node's booking is a function of its own events). Each checkpoint taken at
   * such a boundary carries the order it was derived with, as the stored one does. Where it does
   * not, a node whose records of the interval all came from one topic is still folded exactly
   * (one partition is read in offset order); one whose came from several is flagged to the sink.
   */
  public static long deriveAt(TopicHistory history, Topics topics, Instant until, Map<Instant, Boundary> cuts,
      Sink sink, Runnable perRecord) {
    Instant first = history.peekTime();
    if (first == null) {
      return 0;
    }
    TopologyListener listener = new TopologyListener() {
      @Override
      public void checkpointed(NodeCheckpoint checkpoint) {
        if (!cuts.containsKey(checkpoint.at())) {
          sink.accept(checkpoint, false);
        }
      }
    };
    NavigableMap<Instant, Boundary> pending = new TreeMap<>(cuts);
    List<ConsumerRecord<String, byte[]>> interval = new ArrayList<>();
    List<String> nodeKeyed = topics.nodeKeyed();
    Map<String, Integer> topicsRead = new HashMap<>(); // per node, a bit per node-keyed topic read since the last cut
    long records = 0;
    try (ReplayEngine engine = new ReplayEngine(TopologySettings.defaults(topics), listener, first)) {
      Map.Entry<Instant, Boundary> cut = pending.firstEntry();
      Map<TopicPartition, Long> limits = cut == null ? Map.of() : limits(cut.getValue().cut());
      while (true) {
        ConsumerRecord<String, byte[]> r = history.peekBelow(limits);
        // (a record below a cut is older than its boundary: reached is asked only past that)
        if (cut != null && (r == null || r.timestamp() >= cut.getKey().toEpochMilli())
            && history.reached(limits)) {
          Map<String, List<Run>> orders = cut.getValue().orders();
          fold(engine, ReadOrder.apply(interval, orders, topics));
          interval.clear();
          for (NodeCheckpoint c : engine.checkpoints(cut.getKey(), cut.getValue().cut())) {
            boolean known = orders.containsKey(c.node());
            sink.accept(known ? c.withOrder(orders.get(c.node())) : c,
                !known && Integer.bitCount(topicsRead.getOrDefault(c.node(), 0)) > 1);
          }
          topicsRead.clear();
          pending.pollFirstEntry();
          cut = pending.firstEntry();
          limits = cut == null ? Map.of() : limits(cut.getValue().cut());
          continue;
        }
        if (r == null || r.timestamp() > until.toEpochMilli()) {
          break;
        }
        history.nextBelow(limits);
        int topic = r.key() == null ? -1 : nodeKeyed.indexOf(r.topic());
        if (topic >= 0) {
          topicsRead.merge(r.key(), 1 << topic, (a, b) -> a | b);
        }
        if (cut != null && !cut.getValue().orders().isEmpty()) {
          interval.add(r); // folded at the cut, in its nodes' read order
        } else {
          fold(engine, List.of(r));
        }
        records++;
        perRecord.run();
      }
      fold(engine, interval);
    }
    return records;
  }

  private static void fold(ReplayEngine engine, List<ConsumerRecord<String, byte[]>> records) {
    for (ConsumerRecord<String, byte[]> r : records) {
      engine.pipeRaw(r);
      engine.drainDecisions(); // not needed here: do not let them pile up
    }
  }

  private static Map<TopicPartition, Long> limits(List<Position> cut) {
    Map<TopicPartition, Long> limits = new HashMap<>();
    for (Position p : cut) {
      limits.put(new TopicPartition(p.topic(), p.partition()), p.offset());
    }
    return limits;
  }
}
