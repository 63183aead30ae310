package dev.kubeheadroom.cli;

import dev.kubeheadroom.replay.ReplayEngine;
import dev.kubeheadroom.schemas.CheckpointCodec;
import dev.kubeheadroom.schemas.HeadroomSerdes;
import dev.kubeheadroom.schemas.NodeCheckpoint;
import dev.kubeheadroom.schemas.NodeDecision;
import dev.kubeheadroom.schemas.Topics;
import dev.kubeheadroom.testkit.KafkaBroker;
import dev.kubeheadroom.topology.CheckpointPartitioner;
import dev.kubeheadroom.topology.TopologyListener;
import dev.kubeheadroom.topology.TopologySettings;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.utils.Utils;

/**
 * A history written to a broker as a running pipeline leaves it: the input records, the
 * decisions taken (at their times, as a live topology that keeps up writes them), and the
 * checkpoints as each task writes them (its partition's node events and the global topics
 * replayed with each record's partition and offset: one producer, no transactions, so the send
 * order), for the audit tests.
 */
final class RecordedHistory {
  private RecordedHistory() {}

  /** One input record as produced. */
  record Raw(String topic, String key, byte[] value, Instant at) {}

  static void write(KafkaBroker kafka, Topics topics, int partitions, Instant start, List<Raw> log,
      List<NodeDecision> decisions) {
    try (KafkaProducer<String, byte[]> p = kafka.producer(new StringSerializer(), new ByteArraySerializer())) {
      for (Raw r : log) {
        p.send(new ProducerRecord<>(r.topic(), null, r.at().toEpochMilli(), r.key(), r.value()));
      }
      for (NodeDecision d : decisions) {
        p.send(new ProducerRecord<>(topics.decisions(), null, d.at().toEpochMilli(), d.node(),
            HeadroomSerdes.decisions().serializer().serialize(topics.decisions(), d)));
      }
      Map<String, Long> next = new HashMap<>();
      List<ConsumerRecord<String, byte[]>> read = new ArrayList<>();
      for (Raw r : log) {
        int partition = topics.compacted().contains(r.topic()) ? 0 : partitionOf(r.key(), partitions);
        long offset = next.merge(r.topic() + ":" + partition, 1L, Long::sum) - 1;
        read.add(new ConsumerRecord<>(r.topic(), partition, offset, r.at().toEpochMilli(), TimestampType.CREATE_TIME,
            -1, -1, r.key(), r.value(), new RecordHeaders(), Optional.empty()));
      }
      for (int partition = 0; partition < partitions; partition++) {
        int only = partition;
        try (ReplayEngine task = new ReplayEngine(TopologySettings.defaults(topics), new TopologyListener() {
          @Override
          public void checkpointed(NodeCheckpoint c) {
            p.send(new ProducerRecord<>(topics.checkpoints(), CheckpointPartitioner.partition(c.node(), partitions),
                c.at().toEpochMilli(), c.key(), CheckpointCodec.encode(c)));
          }
        }, start)) {
          for (ConsumerRecord<String, byte[]> r : read) {
            if (topics.compacted().contains(r.topic()) || r.partition() == only) {
              task.pipeRaw(r);
              task.drainDecisions();
            }
          }
        }
      }
      p.flush();
    }
  }

  /** The producer's default partitioner. */
  private static int partitionOf(String key, int partitions) {
    return Utils.toPositive(Utils.murmur2(key.getBytes(StandardCharsets.UTF_8))) % partitions;
  }
}
