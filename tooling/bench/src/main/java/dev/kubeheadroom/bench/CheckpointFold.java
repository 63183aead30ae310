package dev.kubeheadroom.bench;

import dev.kubeheadroom.replay.CheckpointDerivation;
import dev.kubeheadroom.replay.TopicHistory;
import dev.kubeheadroom.schemas.JsonCodec;
import dev.kubeheadroom.schemas.NodeCheckpoint;
import dev.kubeheadroom.schemas.NodeEvent;
import dev.kubeheadroom.schemas.PodSnapshot;
import dev.kubeheadroom.schemas.ResizeOutcome;
import dev.kubeheadroom.schemas.ResizeStatus;
import dev.kubeheadroom.schemas.SchemaException;
import dev.kubeheadroom.schemas.Topics;
import dev.kubeheadroom.topology.HeadroomTopology;
import dev.kubeheadroom.topology.ReadRuns;
import dev.kubeheadroom.topology.booking.Checkpoints;
import dev.kubeheadroom.topology.booking.NodeBooking;
import dev.kubeheadroom.schemas.NodeCheckpoint.Position;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;

/**
 * The bench's setup only: the checkpoints {@link CheckpointDerivation} writes, from folding the
 * node events into bookings ({@link NodeBooking#apply}) without deciding. {@code
 * CheckpointFoldTest} holds the two byte-identical on the bench's log shape.
 *
 * <p>Why deciding can be left out, and when it cannot: a decision only sets a pod's pending
 * target, which a checkpoint does not hold; but a snapshot that confirms a pending target ends
 * the pod's refusal episode (refusals and backoff, which a checkpoint holds). Without outcomes
 * and without the kubelet's Infeasible condition no pod ever starts an episode, so the pending
 * targets change nothing a checkpoint holds. With them, a decision that reverses an in-flight
 * target to the pod's current limits sets a pending target that a status-only snapshot confirms,
 * ending an episode that folding alone would keep: such a log is refused.
 *
 * <p>Copies what the topology does around the fold: the checkpoint boundary and its cut (each
 * partition's offset past the last record read) from every record of the node-keyed sources
 * before its booking ({@code CheckpointProcessor}), the decoder's skips (unreadable, no key,
 * wrong key), the per-node epoch fence, and a failing event skipped.
 */
final class CheckpointFold {
  private static final long INTERVAL_MS = HeadroomTopology.CHECKPOINT_INTERVAL.toMillis();

  /** The log holds what the fold cannot reproduce without deciding. */
  static final class Refused extends IllegalArgumentException {
    Refused(String message) {
      super(message + ": the checkpoints depend on decisions here; use CheckpointDerivation");
    }
  }

  /** The sources the checkpoint processor reads (not decisions: the topology writes them). */
  private final Set<String> sources;
  private final TreeMap<String, NodeBooking> bookings = new TreeMap<>();
  private final Map<String, Long> fences = new HashMap<>();
  private long boundary = Long.MIN_VALUE;
  /** Per node-keyed partition read, the offset past its last record: the checkpoints' cut. */
  private final Map<TopicPartition, Long> next = new HashMap<>();
  /** Per node, the runs of one topic read since the last boundary: each checkpoint's read order. */
  private final ReadRuns runs = new ReadRuns();

  private CheckpointFold(Topics topics) {
    this.sources = Set.of(topics.pods(), topics.nodes(), topics.outcomes());
  }

  /** As {@link CheckpointDerivation#derive}: {@code history} up to and including {@code until}. */
  static long derive(TopicHistory history, Topics topics, Instant until, Consumer<NodeCheckpoint> sink) {
    CheckpointFold fold = new CheckpointFold(topics);
    long records = 0;
    Instant next;
    while ((next = history.peekTime()) != null && !next.isAfter(until)) {
      fold.fold(history.next(), sink);
      records++;
    }
    return records;
  }

  private void fold(ConsumerRecord<String, byte[]> r, Consumer<NodeCheckpoint> sink) {
    if (!sources.contains(r.topic())) {
      return; // namespaces and config only change decisions
    }
    long reached = Math.floorDiv(r.timestamp(), INTERVAL_MS) * INTERVAL_MS;
    if (boundary == Long.MIN_VALUE) {
      boundary = reached;
    } else if (reached > boundary) {
      boundary = reached;
      Instant at = Instant.ofEpochMilli(reached);
      List<Position> cut = new ArrayList<>();
      next.forEach((tp, offset) -> cut.add(new Position(tp.topic(), tp.partition(), offset)));
      for (NodeBooking booking : bookings.values()) { // sorted by node, as the processor writes
        sink.accept(Checkpoints.of(booking, at, cut).withOrder(runs.of(booking.node())));
      }
      runs.clear();
    }
    next.put(new TopicPartition(r.topic(), r.partition()), r.offset() + 1);
    if (r.key() != null) {
      runs.note(r.key(), r.topic());
    }
    NodeEvent event;
    try {
      event = JsonCodec.decode(r.value(), NodeEvent.class);
    } catch (SchemaException e) {
      return; // dead-lettered
    }
    if (r.key() == null || !r.key().equals(event.node()) || !admits(event.node(), event.epoch())) {
      return;
    }
    if (event instanceof ResizeOutcome) {
      throw new Refused("an outcome at " + Instant.ofEpochMilli(r.timestamp()));
    }
    if (event instanceof PodSnapshot pod && pod.resize() == ResizeStatus.INFEASIBLE) {
      throw new Refused("an Infeasible resize at " + Instant.ofEpochMilli(r.timestamp()));
    }
    NodeBooking booking = bookings.getOrDefault(event.node(), NodeBooking.empty(event.node()));
    NodeBooking next;
    try {
      next = booking.apply(event.withEpoch(0), Instant.ofEpochMilli(r.timestamp())).booking();
    } catch (RuntimeException e) {
      return; // the topology dead-letters the node's failure and skips the event
    }
    if (next.snapshot() == null && next.pods().isEmpty()) {
      bookings.remove(event.node()); // not booked: no checkpoint
    } else {
      bookings.put(event.node(), next);
    }
  }

  /** EpochFence's rule: an epoch below the node's highest seen is dropped; 0 always passes. */
  private boolean admits(String node, long epoch) {
    if (epoch <= 0) {
      return true;
    }
    long fence = fences.getOrDefault(node, 0L);
    if (epoch < fence) {
      return false;
    }
    fences.put(node, epoch);
    return true;
  }
}
