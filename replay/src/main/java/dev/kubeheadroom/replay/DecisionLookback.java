package dev.kubeheadroom.replay;

import dev.kubeheadroom.schemas.HeadroomSerdes;
import dev.kubeheadroom.schemas.NodeDecision;
import dev.kubeheadroom.schemas.PodChange;
import dev.kubeheadroom.schemas.SchemaException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.utils.Utils;

/**
 * A pod's last decision from before a checkpoint, read backwards from the decisions topic: an
 * audit that starts at a checkpoint re-derives only the decisions after it (a checkpoint holds no
 * decision: NodeCheckpoint), so a pod whose node was quiet since then would have none. Reads only
 * the node's partition (the topology keys decisions by node), from the first record at or after
 * the checkpoint (the time index: {@code offsetsForTimes}) back, a chunk at a time, until every
 * pod asked for is found, the partition's beginning is reached, or {@code maxChunks} chunks were
 * read: a bounded cost, however long the retained history.
 *
 * <p>These are the decisions the live topology took and recorded, not re-derived ones ({@code
 * audit --verify} checks the two agree).
 */
public final class DecisionLookback {
  /** Records per backwards step. */
  public static final int CHUNK = 256;
  /** Steps before giving up: 4,096 records of the node's partition. */
  public static final int MAX_CHUNKS = 16;
  private static final Duration POLL = Duration.ofMillis(200);

  /**
   * What the look back found.
   *
   * @param byPod the last decision that changed each pod found, by uid
   * @param records the records read
   * @param chunks the chunks read
   * @param complete every pod asked for was found
   */
  public record Found(Map<String, NodeDecision> byPod, long records, int chunks, boolean complete) {
    public Found {
      byPod = Map.copyOf(byPod);
    }
  }

  private final Consumer<String, byte[]> consumer;
  private final Duration timeout;
  private final Deserializer<NodeDecision> decisions = HeadroomSerdes.decisions().deserializer();

  /**
   * The consumer settings a look-back wants: each chunk read moves the consumer's position forward,
   * so it fetches ahead (the next chunk is behind it); near the log's end that fetch waits on the
   * broker for records that are not coming ({@code fetch.max.wait.ms}, 500 ms by default), and a
   * seek back must wait for it: up to 16 such waits. 10 ms bounds them.
   */
  public static Map<String, Object> consumerSettings() {
    return Map.of(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 10);
  }

  /** @param consumer a consumer with no group (assignment only); the caller closes it */
  public DecisionLookback(Consumer<String, byte[]> consumer, Duration timeout) {
    this.consumer = consumer;
    this.timeout = timeout;
  }

  /** The last decisions of {@code node} before {@code before} that changed each of {@code uids}. */
  public Found find(String topic, String node, Set<String> uids, Instant before) {
    return find(topic, node, uids, before, CHUNK, MAX_CHUNKS);
  }

  /** As above, with the step and the bound given. */
  public Found find(String topic, String node, Set<String> uids, Instant before, int chunk, int maxChunks) {
    TopicPartition tp = partitionOf(topic, node);
    List<TopicPartition> assigned = List.of(tp);
    consumer.assign(assigned);
    long begin = consumer.beginningOffsets(assigned, timeout).get(tp);
    OffsetAndTimestamp first = consumer.offsetsForTimes(Map.of(tp, before.toEpochMilli()), timeout).get(tp);
    long end = first != null ? first.offset() : consumer.endOffsets(assigned, timeout).get(tp); // null: none that late
    Set<String> wanted = new HashSet<>(uids);
    Map<String, NodeDecision> found = new HashMap<>();
    long records = 0;
    int chunks = 0;
    while (!wanted.isEmpty() && end > begin && chunks < maxChunks) {
      long start = Math.max(begin, end - chunk);
      List<ConsumerRecord<String, byte[]>> read = read(tp, start, end);
      records += read.size();
      chunks++;
      for (int i = read.size() - 1; i >= 0 && !wanted.isEmpty(); i--) {
        ConsumerRecord<String, byte[]> r = read.get(i);
        // the key first: most of the partition is other nodes' decisions, not decoded
        if (!node.equals(r.key()) || r.value() == null || r.timestamp() >= before.toEpochMilli()) {
          continue;
        }
        NodeDecision d = decode(topic, r.value());
        if (d == null) {
          continue;
        }
        for (PodChange c : d.changes()) {
          if (wanted.remove(c.uid())) {
            found.put(c.uid(), d);
          }
        }
      }
      end = start;
    }
    return new Found(found, records, chunks, wanted.isEmpty());
  }

  /** Where the topology's sink put the node's decisions: the default partitioner over the key. */
  private TopicPartition partitionOf(String topic, String node) {
    List<PartitionInfo> infos = consumer.partitionsFor(topic, timeout);
    if (infos == null || infos.isEmpty()) {
      throw new IllegalStateException("topic " + topic + " does not exist");
    }
    int partition = Utils.toPositive(Utils.murmur2(node.getBytes(StandardCharsets.UTF_8))) % infos.size();
    return new TopicPartition(topic, partition);
  }

  /** The records in [start, end) of {@code tp} (fewer where transaction markers take offsets). */
  private List<ConsumerRecord<String, byte[]>> read(TopicPartition tp, long start, long end) {
    consumer.seek(tp, start);
    List<ConsumerRecord<String, byte[]>> out = new ArrayList<>();
    long deadline = System.nanoTime() + timeout.toNanos();
    while (consumer.position(tp, timeout) < end) {
      List<ConsumerRecord<String, byte[]>> polled = consumer.poll(POLL).records(tp);
      for (ConsumerRecord<String, byte[]> r : polled) {
        if (r.offset() < end) {
          out.add(r);
        }
      }
      if (polled.isEmpty() && System.nanoTime() > deadline) {
        throw new IllegalStateException("Kafka did not deliver " + tp + " [" + start + ", " + end + ") within "
            + timeout);
      }
    }
    return out;
  }

  private NodeDecision decode(String topic, byte[] value) {
    try {
      return decisions.deserialize(topic, value);
    } catch (SchemaException unreadable) {
      return null; // not a decision this version reads: an older one is still found further back
    }
  }
}
