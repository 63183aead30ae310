package dev.kubeheadroom.replay;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.schemas.CheckpointCodec;
import dev.kubeheadroom.schemas.ContainerKind;
import dev.kubeheadroom.schemas.ContainerSnapshot;
import dev.kubeheadroom.schemas.JsonCodec;
import dev.kubeheadroom.schemas.NodeCheckpoint;
import dev.kubeheadroom.schemas.NodeCheckpoint.CheckpointPod;
import dev.kubeheadroom.schemas.NodeSnapshot;
import dev.kubeheadroom.schemas.PodSnapshot;
import dev.kubeheadroom.schemas.ResizeStatus;
import dev.kubeheadroom.topology.CheckpointPartitioner;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/**
 * The reader against a checkpoints topic laid out as the topology writes it (each node's
 * checkpoints in its node's partition, boundary after boundary): it reads every partition at
 * once, stops each at a bound it knew before reading, and finds exactly the cut a plain
 * sequential scan of the whole topic finds.
 */
class CheckpointReaderTest {
  private static final String TOPIC = "headroom.checkpoints";
  private static final int PARTITIONS = 6;
  private static final Instant B0 = Instant.parse("2026-03-01T12:00:00Z");
  private static final Duration INTERVAL = Duration.ofMinutes(10);

  /** A consumer over fixed records that fails a poll when no partition has anything left. */
  private static final class Topic extends MockConsumer<String, byte[]> {
    final List<ConsumerRecord<String, byte[]>> all = new ArrayList<>();
    final Map<TopicPartition, Long> ends = new HashMap<>();
    int polls;

    Topic() {
      super("earliest");
      List<PartitionInfo> infos = new ArrayList<>();
      Map<TopicPartition, Long> begins = new HashMap<>();
      for (int p = 0; p < PARTITIONS; p++) {
        infos.add(new PartitionInfo(TOPIC, p, Node.noNode(), new Node[0], new Node[0]));
        begins.put(new TopicPartition(TOPIC, p), 0L);
        ends.put(new TopicPartition(TOPIC, p), 0L);
      }
      updatePartitions(TOPIC, infos);
      updateBeginningOffsets(begins);
    }

    /** Records of aborted transactions: in the time index and the offsets, never delivered (read_committed). */
    final List<ConsumerRecord<String, byte[]>> aborted = new ArrayList<>();

    void add(NodeCheckpoint c, byte[] value) {
      all.add(record(c, value));
    }

    /** A checkpoint written in a transaction that aborted. */
    void addAborted(NodeCheckpoint c) {
      aborted.add(record(c, CheckpointCodec.encode(c)));
    }

    private ConsumerRecord<String, byte[]> record(NodeCheckpoint c, byte[] value) {
      TopicPartition tp = new TopicPartition(TOPIC, CheckpointPartitioner.partition(c.node(), PARTITIONS));
      long offset = ends.get(tp);
      ends.put(tp, offset + 1);
      return new ConsumerRecord<>(TOPIC, tp.partition(), offset, c.at().toEpochMilli(),
          org.apache.kafka.common.record.TimestampType.CREATE_TIME, 0, value.length, c.key(), value,
          new org.apache.kafka.common.header.internals.RecordHeaders(), Optional.empty());
    }

    /** Hands the records to the mock once the topic is complete. */
    void seal() {
      updateEndOffsets(ends);
    }

    @Override
    public synchronized ConsumerRecords<String, byte[]> poll(Duration timeout) {
      polls++;
      boolean anyLeft = false;
      for (TopicPartition tp : assignment()) {
        anyLeft |= !paused().contains(tp) && position(tp) < ends.get(tp);
      }
      assertThat(anyLeft).as("a poll with every partition read to its bound (it would wait on the broker)").isTrue();
      // deliver only from the current positions, as the broker would after a seek
      for (ConsumerRecord<String, byte[]> r : all) {
        TopicPartition tp = new TopicPartition(r.topic(), r.partition());
        if (assignment().contains(tp) && !paused().contains(tp) && r.offset() >= position(tp)) {
          addRecord(r);
        }
      }
      return super.poll(timeout);
    }

    @Override
    public synchronized Map<TopicPartition, OffsetAndTimestamp> offsetsForTimes(Map<TopicPartition, Long> query,
        Duration timeout) {
      Map<TopicPartition, OffsetAndTimestamp> out = new HashMap<>();
      List<ConsumerRecord<String, byte[]>> indexed = new ArrayList<>(all); // the time index holds aborted batches too
      indexed.addAll(aborted);
      indexed.sort(java.util.Comparator.comparingLong(ConsumerRecord::offset));
      query.forEach((tp, ms) -> indexed.stream()
          .filter(r -> r.partition() == tp.partition() && r.timestamp() >= ms).findFirst()
          .ifPresent(r -> out.put(tp, new OffsetAndTimestamp(r.offset(), r.timestamp()))));
      return out;
    }

    @Override
    public synchronized Map<TopicPartition, OffsetAndTimestamp> offsetsForTimes(Map<TopicPartition, Long> query) {
      return offsetsForTimes(query, Duration.ZERO);
    }
  }

  private static NodeCheckpoint checkpoint(int node, Instant at) {
    String name = "node-" + node;
    List<CheckpointPod> pods = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      pods.add(new CheckpointPod(new PodSnapshot("uid-" + node + "-" + i, "team-a", "p" + i, name, "Running",
          "Burstable", at.toEpochMilli() + "-" + i, 1, null, 0, null, false, List.of(),
          List.of(new ContainerSnapshot("app", ContainerKind.APP, 100L + at.getEpochSecond() % 7 + i, 0, false, false)),
          ResizeStatus.NONE), null, false, 0));
    }
    return new NodeCheckpoint(name, at, new NodeSnapshot(name, 8000, "linux", false, Map.of()), pods);
  }

  /** Five boundaries of 40 nodes (one node missing at the third); older ones in JSON. */
  private static Topic topic() {
    Topic topic = new Topic();
    for (int b = 0; b < 5; b++) {
      Instant at = B0.plus(INTERVAL.multipliedBy(b));
      for (int n = 0; n < 40; n++) {
        if (b == 2 && n == 7) {
          continue;
        }
        NodeCheckpoint c = checkpoint(n, at);
        topic.add(c, b < 2 ? JsonCodec.encode(c) : CheckpointCodec.encode(c));
      }
    }
    topic.seal();
    return topic;
  }

  /** The reference: every record of the topic, one after another. */
  private static List<NodeCheckpoint> sequentialScan(Topic topic, Instant boundary) {
    Map<String, NodeCheckpoint> byKey = new TreeMap<>();
    topic.all.stream().filter(r -> r.timestamp() == boundary.toEpochMilli())
        .forEach(r -> byKey.put(r.key(), CheckpointCodec.decode(r.value())));
    return new ArrayList<>(byKey.values());
  }

  @Test
  void atTheEndOfTheLogTheCutIsReadWithoutAPollPastAnyPartitionsEndOffset() {
    Topic topic = topic();
    Instant last = B0.plus(INTERVAL.multipliedBy(4));

    CheckpointCut cut = new CheckpointReader(topic, Duration.ofSeconds(5)).latest(TOPIC, last.plusSeconds(599))
        .orElseThrow();

    assertThat(cut.at()).isEqualTo(last);
    assertThat(cut.nodes()).hasSize(40).isEqualTo(sequentialScan(topic, last));
    // every partition in each fetch: one poll to find the boundary, one to read it (the poll
    // guard fails any poll made once all partitions reached their end offsets)
    assertThat(topic.polls).isLessThanOrEqualTo(2);
  }

  @Test
  void inTheMiddleEachPartitionStopsAtItsFirstLaterBoundaryAndTheCutEqualsASequentialScan() {
    for (int b = 0; b < 4; b++) {
      Topic topic = topic();
      Instant boundary = B0.plus(INTERVAL.multipliedBy(b));

      CheckpointCut cut = new CheckpointReader(topic, Duration.ofSeconds(5))
          .latest(TOPIC, boundary.plus(INTERVAL).minusMillis(1)).orElseThrow();

      assertThat(cut.at()).isEqualTo(boundary);
      assertThat(cut.nodes()).as("boundary %d", b).isEqualTo(sequentialScan(topic, boundary))
          .hasSize(b == 2 ? 39 : 40);
      assertThat(topic.polls).isLessThanOrEqualTo(2);
    }
  }

  /**
   * A task revived inside a transaction: boundaries 3 and 4 of every node written, aborted, and
   * written again after them. The time index points the moment past boundary 3 at the aborted
   * boundary 4, with only aborted records in the look-back before it; boundary 3's committed copy
   * follows, and is the cut (not boundary 2's, an older start than the log has).
   */
  @Test
  void aBoundaryWrittenAgainAfterAnAbortedCopyIsTheCut() {
    Topic topic = new Topic();
    for (int b = 0; b < 5; b++) {
      Instant at = B0.plus(INTERVAL.multipliedBy(b));
      for (int n = 0; n < 40; n++) {
        if (b < 3) {
          topic.add(checkpoint(n, at), CheckpointCodec.encode(checkpoint(n, at)));
        } else if (b == 3) {
          topic.addAborted(checkpoint(n, at));
          topic.addAborted(checkpoint(n, at.plus(INTERVAL)));
        }
      }
    }
    for (int b = 3; b < 5; b++) {
      Instant at = B0.plus(INTERVAL.multipliedBy(b));
      for (int n = 0; n < 40; n++) {
        topic.add(checkpoint(n, at), CheckpointCodec.encode(checkpoint(n, at)));
      }
    }
    topic.seal();
    Instant third = B0.plus(INTERVAL.multipliedBy(3));

    CheckpointCut cut = new CheckpointReader(topic, Duration.ofSeconds(5)).latest(TOPIC, third.plus(INTERVAL).minusMillis(1))
        .orElseThrow();
    CheckpointCut own = new CheckpointReader(topic, Duration.ofSeconds(5))
        .latestOf(TOPIC, third.plus(INTERVAL).minusMillis(1), "node-7").orElseThrow();

    assertThat(cut.at()).isEqualTo(third);
    assertThat(cut.nodes()).hasSize(40).isEqualTo(sequentialScan(topic, third));
    assertThat(own.at()).isEqualTo(third);
    assertThat(own.nodes()).containsExactly(checkpoint(7, third));
  }

  @Test
  void beforeTheFirstBoundaryThereIsNoCut() {
    Topic topic = topic();
    assertThat(new CheckpointReader(topic, Duration.ofSeconds(5)).latest(TOPIC, B0.minusMillis(1))).isEmpty();
  }
}
