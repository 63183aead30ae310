package dev.kubeheadroom.installed;

import dev.kubeheadroom.schemas.HeadroomSerdes;
import dev.kubeheadroom.schemas.NodeDecision;
import dev.kubeheadroom.schemas.PodChange;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * The decisions topic read from its start to its end: every pod change the topology decided and
 * committed (or, asked for, every one it wrote).
 */
final class DecisionLog {
  /**
   * One pod's change within a node decision, in topic order per node (partition, offset); {@code at}
   * is the decision's own time (its input's), {@code written} when the topology wrote the record
   * (the record's timestamp, the producer's clock).
   */
  record Change(int partition, long offset, Instant at, boolean dryRun, String pod, String uid, long targetMilli,
      Instant written) {
    /** Whether it was decided after {@code ends} (the end offset of each partition then). */
    boolean after(Map<Integer, Long> ends) {
      return offset >= ends.getOrDefault(partition, 0L);
    }
  }

  private DecisionLog() {}

  /** The committed decisions: what the actuator, reading {@code read_committed}, can see. */
  static List<Change> read(String bootstrapServers, String topic) {
    return read(bootstrapServers, topic, true);
  }

  /**
   * {@code committedOnly} false: every decision written, those of aborted transactions too (a
   * topology instance fenced or killed before its commit): made, never seen by the actuator.
   */
  static List<Change> read(String bootstrapServers, String topic, boolean committedOnly) {
    Map<String, Object> config = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
        ConsumerConfig.ISOLATION_LEVEL_CONFIG, committedOnly ? "read_committed" : "read_uncommitted",
        // (generous: the suite reads while the machine is loaded, and right after broker restarts)
        ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 120_000, ConsumerConfig.REQUEST_TIMEOUT_MS_CONFIG, 60_000);
    List<Change> out = new ArrayList<>();
    try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(config, new StringDeserializer(),
        new ByteArrayDeserializer())) {
      List<TopicPartition> partitions = consumer.partitionsFor(topic, Duration.ofSeconds(120)).stream()
          .map(p -> new TopicPartition(topic, p.partition())).toList();
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
      long deadline = System.nanoTime() + Duration.ofSeconds(180).toNanos();
      while (partitions.stream().anyMatch(tp -> consumer.position(tp) < end.get(tp))) {
        if (System.nanoTime() > deadline) {
          throw new AssertionError("could not read " + topic + " to its end in 180 s");
        }
        for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(200))) {
          if (r.value() == null) {
            continue;
          }
          NodeDecision d = HeadroomSerdes.decisions().deserialize(topic, r.value());
          for (PodChange c : d.changes()) {
            out.add(new Change(r.partition(), r.offset(), d.at(), d.dryRun(), c.namespace() + "/" + c.name(), c.uid(), c.targetMilli(),
                Instant.ofEpochMilli(r.timestamp())));
          }
        }
      }
    }
    return out;
  }

  /** Each partition's end offset after {@code changes} (where the next record will be). */
  static Map<Integer, Long> ends(List<Change> changes) {
    Map<Integer, Long> ends = new java.util.HashMap<>();
    changes.forEach(c -> ends.merge(c.partition(), c.offset() + 1, Math::max));
    return ends;
  }

  /** The last enforcing (not dry-run) change of each pod. */
  static Map<String, Change> latestEnforced(List<Change> changes) {
    Map<String, Change> latest = new LinkedHashMap<>();
    changes.stream().filter(c -> !c.dryRun()).forEach(c -> latest.put(c.pod(), c));
    return latest;
  }
}
