package dev.kubeheadroom.replay;

import dev.kubeheadroom.schemas.HeadroomSerdes;
import dev.kubeheadroom.schemas.JsonCodec;
import dev.kubeheadroom.schemas.NodeDecision;
import dev.kubeheadroom.schemas.NodeEvent;
import dev.kubeheadroom.schemas.PodChange;
import dev.kubeheadroom.schemas.ResizeOutcome;
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
 * A pod's last decision and last outcome from before a checkpoint, read backwards from the
 * decisions and outcomes topics: an audit that starts at a checkpoint re-derives only the
 * decisions after it and reads only the outcomes after it (a checkpoint holds neither:
 * NodeCheckpoint), so a pod whose node was quiet since would show none where the whole log's
 * replay shows one. Reads only the node's partition (both topics are keyed by node), from where
 * the replay started reading it (the cut's offset, or the first record at or after the
 * checkpoint: the time index, {@code offsetsForTimes}) back, in windows that double from {@link
 * #FIRST_WINDOW} to {@link #MAX_WINDOW} records, until every pod asked for is found, or a whole
 * decision of the node shows it was not on the node yet, or the partition's beginning is reached:
 * never a scan from the beginning, each window a bounded read, and what it finds is what the whole
 * replay finds (the retained history holds nothing older).
 *
 * <p>The decisions are those the live topology took and recorded, not re-derived ones ({@code
 * audit --verify} checks the two agree).
 */
public final class NodeLookback {
  /** Records in the first backwards window. */
  public static final int FIRST_WINDOW = 256;
  /** Records in the largest window (each doubles the last). */
  public static final int MAX_WINDOW = 65_536;
  private static final Duration POLL = Duration.ofMillis(200);

  /**
   * What the look back found.
   *
   * @param byPod the last record that concerned each pod found, by uid
   * @param records the records read
   * @param windows the windows read
   * @param complete every pod asked for was found, or shown to have nothing older
   */
  public record Found<V>(Map<String, V> byPod, long records, int windows, boolean complete) {
    public Found {
      byPod = Map.copyOf(byPod);
    }
  }

  /**
   * Where a look-back starts, as a replay from a checkpoint started reading the partition
   * ({@link Audit#scope}): at its offset in {@code cut} when the cut names it (every record below
   * is read back), else at the first record at or after {@code at} (the time index; records at or
   * after {@code at} are skipped).
   */
  public record Start(Instant at, Map<TopicPartition, Long> cut) {
    public Start {
      cut = Map.copyOf(cut);
    }
  }

  /**
   * How one topic's values are read: the value, the pods it concerns (none: skipped), and the
   * pods it shows were not on the node then (null: it does not say), whose search ends there: a
   * pod's uid is on one node, for one stretch of time, so nothing older concerns it.
   */
  private interface Reading<V> {
    V decode(String topic, byte[] value);

    List<String> pods(V value);

    Set<String> onNode(V value);
  }

  private static final Deserializer<NodeDecision> DECISIONS = HeadroomSerdes.decisions().deserializer();

  private static final Reading<NodeDecision> DECISION = new Reading<>() {
    @Override
    public NodeDecision decode(String topic, byte[] value) {
      return DECISIONS.deserialize(topic, value);
    }

    @Override
    public List<String> pods(NodeDecision d) {
      return d.changes().stream().map(PodChange::uid).toList();
    }

    /** A whole decision lists every pod on the node among its inputs; one part of a split one, only some. */
    @Override
    public Set<String> onNode(NodeDecision d) {
      if (d.part() != null) {
        return null;
      }
      Set<String> on = new HashSet<>();
      d.inputs().forEach(in -> on.add(in.key()));
      return on;
    }
  };

  private static final Reading<ResizeOutcome> OUTCOME = new Reading<>() {
    @Override
    public ResizeOutcome decode(String topic, byte[] value) {
      return JsonCodec.decode(value, NodeEvent.class) instanceof ResizeOutcome o ? o : null;
    }

    @Override
    public List<String> pods(ResizeOutcome o) {
      return List.of(o.podUid());
    }

    @Override
    public Set<String> onNode(ResizeOutcome o) {
      return null;
    }
  };

  private final Consumer<String, byte[]> consumer;
  private final Duration timeout;

  /**
   * The consumer settings a look-back wants: each window read moves the consumer's position
   * forward, so it fetches ahead (the next window is behind it); near the log's end that fetch
   * waits on the broker for records that are not coming ({@code fetch.max.wait.ms}, 500 ms by
   * default), and a seek back must wait for it. {@link #FETCH_WAIT_MS} bounds each such wait.
   */
  public static Map<String, Object> consumerSettings() {
    return Map.of(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, FETCH_WAIT_MS);
  }

  /**
   * {@code fetch.max.wait.ms} of a reader that reads one partition to (near) its end: the client
   * fetches ahead, and the broker would hold each such fetch 500 ms for records not coming.
   */
  static final int FETCH_WAIT_MS = 10;

  /** @param consumer a consumer with no group (assignment only); the caller closes it */
  public NodeLookback(Consumer<String, byte[]> consumer, Duration timeout) {
    this.consumer = consumer;
    this.timeout = timeout;
  }

  /** The last decisions of {@code node} from before {@code start} that changed each of {@code uids}. */
  public Found<NodeDecision> decisions(String topic, String node, Set<String> uids, Start start) {
    return find(topic, node, uids, start, DECISION);
  }

  /** The last outcome of each of {@code uids} (pods on {@code node}) from before {@code start}. */
  public Found<ResizeOutcome> outcomes(String topic, String node, Set<String> uids, Start start) {
    return find(topic, node, uids, start, OUTCOME);
  }

  private <V> Found<V> find(String topic, String node, Set<String> uids, Start from, Reading<V> reading) {
    TopicPartition tp = partitionOf(topic, node);
    List<TopicPartition> assigned = List.of(tp);
    consumer.assign(assigned);
    long begin = consumer.beginningOffsets(assigned, timeout).get(tp);
    long skipFrom = Long.MAX_VALUE; // records at or after this time are not before the start
    Long named = from.cut().get(tp);
    long end;
    if (named != null) {
      end = named;
    } else {
      skipFrom = from.at().toEpochMilli();
      OffsetAndTimestamp first = consumer.offsetsForTimes(Map.of(tp, skipFrom), timeout).get(tp);
      end = first != null ? first.offset() : consumer.endOffsets(assigned, timeout).get(tp); // null: none that late
    }
    Set<String> wanted = new HashSet<>(uids);
    Map<String, V> found = new HashMap<>();
    long records = 0;
    int windows = 0;
    int window = FIRST_WINDOW;
    while (!wanted.isEmpty() && end > begin) {
      long start = Math.max(begin, end - window);
      List<ConsumerRecord<String, byte[]>> read = read(tp, start, end);
      records += read.size();
      windows++;
      for (int i = read.size() - 1; i >= 0 && !wanted.isEmpty(); i--) {
        ConsumerRecord<String, byte[]> r = read.get(i);
        // the key first: most of the partition is other nodes' records, not decoded
        if (!node.equals(r.key()) || r.value() == null || r.timestamp() >= skipFrom) {
          continue;
        }
        V value = decode(reading, topic, r.value());
        if (value == null) {
          continue;
        }
        for (String uid : reading.pods(value)) {
          if (wanted.remove(uid)) {
            found.put(uid, value);
          }
        }
        Set<String> on = reading.onNode(value);
        if (on != null) {
          wanted.retainAll(on); // not on the node then: no older record concerns it
        }
      }
      end = start;
      window = Math.min(MAX_WINDOW, window * 2);
    }
    return new Found<>(found, records, windows, wanted.isEmpty());
  }

  /** Where the node's records are: the default partitioner over the key (the topology's sink, ingest's producer). */
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

  private static <V> V decode(Reading<V> reading, String topic, byte[] value) {
    try {
      return reading.decode(topic, value);
    } catch (SchemaException unreadable) {
      return null; // not one this version reads (the replay skips it too): an older one is found further back
    }
  }
}
