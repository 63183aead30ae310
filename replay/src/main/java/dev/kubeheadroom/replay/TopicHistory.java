package dev.kubeheadroom.replay;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;

/**
 * The retained history of several topics as one stream in record-time order (a k-way merge over
 * their partitions; each partition is already in order). Ties go to the earlier topic in the
 * given list, then partition, then offset, so the order is a pure function of the topics' content.
 * Reads up to the end offsets seen at start; buffers at most {@link #MAX_BUFFERED} per partition.
 */
public final class TopicHistory implements AutoCloseable {
  static final int MAX_BUFFERED = 2_000;
  private static final Duration POLL = Duration.ofMillis(200);

  private record Head(ConsumerRecord<String, byte[]> record, int topicRank) {}

  private final Consumer<String, byte[]> consumer;
  private final Map<TopicPartition, ArrayDeque<ConsumerRecord<String, byte[]>>> buffers = new HashMap<>();
  private final Map<TopicPartition, Long> ends;
  private final Map<String, Integer> rank = new HashMap<>();
  private final Duration timeout;
  private final long size;
  /** The partitions not yet read to their end, with their buffers (a fixed order, no lookups). */
  private final List<Source> open = new ArrayList<>();
  /** The source whose head goes next; null: not chosen since the last take. */
  private Source chosen;
  /** As {@link #chosen}, among the partitions below {@link #belowLimits} (the map's identity). */
  private Source chosenBelow;
  private Map<TopicPartition, Long> belowLimits;

  /** One partition's buffer and whether Kafka still has records for it below its end offset. */
  private static final class Source {
    final TopicPartition partition;
    final ArrayDeque<ConsumerRecord<String, byte[]>> buffer;
    final int topicRank;
    boolean more = true;

    Source(TopicPartition partition, ArrayDeque<ConsumerRecord<String, byte[]>> buffer, int topicRank) {
      this.partition = partition;
      this.buffer = buffer;
      this.topicRank = topicRank;
    }
  }

  /**
   * Which part of the topics a history reads: the partitions {@code include} accepts, each from
   * its beginning, or from its offset in {@code at}, or else, for a topic in {@code from}, from
   * its first record at or after that time (Kafka's time index: {@code offsetsForTimes}).
   */
  public record Scope(Map<String, Instant> from, Predicate<TopicPartition> include, Map<TopicPartition, Long> at) {
    public static final Scope ALL = new Scope(Map.of(), tp -> true);

    public Scope {
      from = Map.copyOf(from);
      at = Map.copyOf(at);
    }

    public Scope(Map<String, Instant> from, Predicate<TopicPartition> include) {
      this(from, include, Map.of());
    }
  }

  /** @param consumer a consumer with no group (assignment only); closed with this history */
  public TopicHistory(Consumer<String, byte[]> consumer, List<String> topics, Duration timeout) {
    this(consumer, topics, timeout, Scope.ALL);
  }

  /** As above, reading only {@code scope}. */
  public TopicHistory(Consumer<String, byte[]> consumer, List<String> topics, Duration timeout, Scope scope) {
    this.consumer = consumer;
    this.timeout = timeout;
    List<TopicPartition> partitions = new ArrayList<>();
    for (int i = 0; i < topics.size(); i++) {
      rank.put(topics.get(i), i);
      List<PartitionInfo> infos = consumer.partitionsFor(topics.get(i), timeout);
      if (infos == null || infos.isEmpty()) {
        throw new IllegalStateException("topic " + topics.get(i) + " does not exist");
      }
      infos.stream().map(p -> new TopicPartition(p.topic(), p.partition())).filter(scope.include())
          .forEach(partitions::add);
    }
    consumer.assign(partitions);
    consumer.seekToBeginning(partitions);
    this.ends = new HashMap<>(consumer.endOffsets(partitions, timeout));
    Map<TopicPartition, Long> times = new HashMap<>();
    for (TopicPartition tp : partitions) {
      Long offset = scope.at().get(tp);
      Instant from = scope.from().get(tp.topic());
      if (offset != null) {
        consumer.seek(tp, Math.min(offset, ends.get(tp)));
      } else if (from != null) {
        times.put(tp, from.toEpochMilli());
      }
    }
    if (!times.isEmpty()) {
      consumer.offsetsForTimes(times, timeout).forEach((tp, found) ->
          consumer.seek(tp, found == null ? ends.get(tp) : found.offset())); // null: nothing that late
    }
    long size = 0;
    for (TopicPartition tp : partitions) {
      size += Math.max(0, ends.get(tp) - consumer.position(tp, timeout));
    }
    this.size = size;
    for (TopicPartition tp : partitions) {
      ArrayDeque<ConsumerRecord<String, byte[]>> buffer = new ArrayDeque<>();
      buffers.put(tp, buffer);
      open.add(new Source(tp, buffer, rank.get(tp.topic())));
    }
  }

  /** How many offsets the history spans (at most the records it yields: compaction, markers). */
  public long size() {
    return size;
  }

  /** The earliest record time still retained in any of the topics, if any record is. */
  public java.util.Optional<Instant> earliest() {
    fill();
    return heads().stream().map(h -> Instant.ofEpochMilli(h.record().timestamp())).min(Comparator.naturalOrder());
  }

  /** The next record in time order, or null when every partition is read to its end. */
  public ConsumerRecord<String, byte[]> next() {
    Source source = choose();
    chosen = null;
    chosenBelow = null;
    return source == null ? null : source.buffer.pollFirst();
  }

  /** Peeks at the next record's time without taking it. */
  public Instant peekTime() {
    Source source = choose();
    return source == null ? null : Instant.ofEpochMilli(source.buffer.peekFirst().timestamp());
  }

  /**
   * The next record in time order among the partitions still below their limit in {@code
   * limits} (a partition without one has none), or null when there is none: what a
   * re-derivation folds on its way to a checkpoint's cut ({@code CheckpointDerivation}).
   */
  public ConsumerRecord<String, byte[]> peekBelow(Map<TopicPartition, Long> limits) {
    Source source = chooseBelow(limits);
    return source == null ? null : source.buffer.peekFirst();
  }

  /** Takes the record {@link #peekBelow} shows. */
  public ConsumerRecord<String, byte[]> nextBelow(Map<TopicPartition, Long> limits) {
    Source source = chooseBelow(limits);
    chosenBelow = null;
    return source == null ? null : source.buffer.pollFirst();
  }

  /** Whether every partition in {@code limits} is read up to its limit (or to its end). */
  public boolean reached(Map<TopicPartition, Long> limits) {
    ensureHeads();
    for (Source s : open) {
      Long limit = limits.get(s.partition);
      ConsumerRecord<String, byte[]> head = s.buffer.peekFirst();
      if (limit != null && head != null && head.offset() < limit) {
        return false;
      }
    }
    return true;
  }

  private Source chooseBelow(Map<TopicPartition, Long> limits) {
    chosen = null;
    if (chosenBelow != null && belowLimits == limits) {
      return chosenBelow;
    }
    ensureHeads();
    Source best = null;
    for (Source s : open) {
      ConsumerRecord<String, byte[]> head = s.buffer.peekFirst();
      Long limit = head == null ? null : limits.get(s.partition);
      if (head != null && (limit == null || head.offset() < limit)
          && (best == null || compare(head, s.topicRank, best.buffer.peekFirst(), best.topicRank) < 0)) {
        best = s;
      }
    }
    chosenBelow = best;
    belowLimits = limits;
    return best;
  }

  /**
   * The source whose head is next in {@link #compare} order, remembered until it is taken. Polls Kafka only when an open partition's
   * buffer ran dry.
   */
  private Source choose() {
    if (chosen != null) {
      return chosen;
    }
    ensureHeads();
    Source best = null;
    for (Source s : open) {
      ConsumerRecord<String, byte[]> head = s.buffer.peekFirst();
      if (head != null && (best == null || compare(head, s.topicRank, best.buffer.peekFirst(), best.topicRank) < 0)) {
        best = s;
      }
    }
    chosen = best;
    return best;
  }

  /** Every partition not read to its end has its next record buffered. */
  private void ensureHeads() {
    for (Source s : open) {
      if (s.buffer.isEmpty() && s.more) {
        fill();
        return;
      }
    }
  }

  private List<Head> heads() {
    List<Head> heads = new ArrayList<>();
    buffers.forEach((tp, q) -> {
      if (!q.isEmpty()) {
        heads.add(new Head(q.peekFirst(), rank.get(tp.topic())));
      }
    });
    return heads;
  }

  private static int compare(Head a, Head b) {
    return compare(a.record(), a.topicRank(), b.record(), b.topicRank());
  }

  private static int compare(ConsumerRecord<String, byte[]> a, int rankA, ConsumerRecord<String, byte[]> b,
      int rankB) {
    int c = Long.compare(a.timestamp(), b.timestamp());
    if (c == 0) {
      c = Integer.compare(rankA, rankB);
    }
    if (c == 0) {
      c = Integer.compare(a.partition(), b.partition());
    }
    return c != 0 ? c : Long.compare(a.offset(), b.offset());
  }

  /** Polls until every partition not yet read to its end has at least one buffered record. */
  private void fill() {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      List<TopicPartition> starving = new ArrayList<>();
      List<TopicPartition> full = new ArrayList<>();
      for (Source source : open) {
        source.more = consumer.position(source.partition, timeout) < ends.get(source.partition);
        if (source.buffer.isEmpty() && source.more) {
          starving.add(source.partition);
        }
        if (source.buffer.size() >= MAX_BUFFERED || !source.more) {
          full.add(source.partition);
        }
      }
      if (starving.isEmpty()) {
        return;
      }
      consumer.pause(full);
      consumer.resume(starving);
      ConsumerRecords<String, byte[]> records = consumer.poll(POLL);
      for (ConsumerRecord<String, byte[]> r : records) {
        TopicPartition tp = new TopicPartition(r.topic(), r.partition());
        if (r.offset() < ends.get(tp)) {
          buffers.get(tp).addLast(r);
        }
      }
      if (records.isEmpty() && System.nanoTime() > deadline) {
        throw new IllegalStateException("Kafka did not deliver " + starving + " within " + timeout);
      }
    }
  }

  @Override
  public void close() {
    consumer.close();
  }
}
