package dev.kubeheadroom.replay;

import dev.kubeheadroom.schemas.CheckpointCodec;
import dev.kubeheadroom.schemas.NodeCheckpoint;
import dev.kubeheadroom.schemas.SchemaException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;

/**
 * The checkpoints at one boundary as stored, decoded only on demand ({@link
 * CheckpointReader#latestStored}): an audit of one pod ({@link PodPlaces}) looks for it among
 * thousands of checkpoints and decodes only those whose bytes can hold it, then the checkpoints of
 * the nodes it was on. The positions are every checkpoint's, read from their heads ({@link
 * CheckpointCodec#cut}), so a replay from any part of the cut reads what the whole cut's does.
 */
public final class StoredCut {
  private final Instant at;
  /** Per node, its checkpoint's stored value (a compacted twin: the last one wins). */
  private final Map<String, byte[]> byNode;
  private final Map<TopicPartition, Long> positions;

  private StoredCut(Instant at, Map<String, byte[]> byNode, Map<TopicPartition, Long> positions) {
    this.at = at;
    this.byNode = byNode;
    this.positions = positions;
  }

  /** The cut of a boundary's checkpoint records, keyed {@link NodeCheckpoint#key}. */
  static StoredCut of(Instant at, List<ConsumerRecord<String, byte[]>> records) {
    String suffix = "@" + at.toEpochMilli();
    Map<String, byte[]> byNode = new TreeMap<>();
    for (ConsumerRecord<String, byte[]> r : records) {
      String node = r.key() != null && r.key().endsWith(suffix) ? r.key().substring(0, r.key().length() - suffix.length())
          : null;
      if (node == null) { // not keyed as the topology keys them: its node from the value
        NodeCheckpoint c = CheckpointReader.decode(r.value());
        node = c == null ? null : c.node();
      }
      if (node != null) {
        byNode.put(node, r.value());
      }
    }
    Map<TopicPartition, Long> positions = new HashMap<>();
    for (byte[] value : byNode.values()) {
      try {
        for (NodeCheckpoint.Position p : CheckpointCodec.cut(value)) {
          positions.merge(new TopicPartition(p.topic(), p.partition()), p.offset(), Math::min);
        }
      } catch (SchemaException e) {
        // unreadable: that node is replayed as unknown at the cut, as from the whole cut
      }
    }
    return new StoredCut(at, byNode, positions);
  }

  public Instant at() {
    return at;
  }

  /** How many nodes have a checkpoint at the boundary. */
  public int size() {
    return byNode.size();
  }

  /**
   * The nodes whose checkpoint {@code holds} accepts, decoding only the values {@code mayHold}
   * accepts (a test of the bytes, cheaper than decoding them all), in parallel.
   */
  public Set<String> nodesWhere(Predicate<byte[]> mayHold, Predicate<NodeCheckpoint> holds) {
    List<String> found = byNode.entrySet().parallelStream().filter(e -> mayHold.test(e.getValue()))
        .map(e -> decodeAt(e.getValue())).filter(c -> c != null && holds.test(c)).map(NodeCheckpoint::node).toList();
    return Set.copyOf(found);
  }

  /** The cut of {@code nodes}' checkpoints (a node with none starts unknown), with every checkpoint's positions. */
  public CheckpointCut of(Set<String> nodes) {
    List<NodeCheckpoint> decoded = new ArrayList<>();
    for (String node : new TreeSet<>(nodes)) {
      byte[] value = byNode.get(node);
      NodeCheckpoint c = value == null ? null : decodeAt(value);
      if (c != null) {
        decoded.add(c);
      }
    }
    return new CheckpointCut(at, decoded, positions);
  }

  /** The checkpoint, or null when unreadable or of another boundary. */
  private NodeCheckpoint decodeAt(byte[] value) {
    NodeCheckpoint c = CheckpointReader.decode(value);
    return c != null && c.at().equals(at) ? c : null;
  }
}
