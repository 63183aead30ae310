package dev.kubeheadroom.bench;

import dev.kubeheadroom.schemas.KafkaClientSettings;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ProducerState;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * The decisions topic as the actuator reads it (read_committed, so a decision is seen only once
 * its transaction commits, and nothing behind an open transaction of the same partition is):
 * every decision record from the end at start, with its timestamp (the topology's wall clock when
 * it decided) and when it became visible here.
 */
final class DecisionWatch implements AutoCloseable {
  /** A decision for {@code node} made at {@code decidedMs} (wall clock), seen at {@code seenNanos}. */
  record Seen(String node, int partition, long decidedMs, long seenNanos) {}

  final ConcurrentLinkedQueue<Seen> seen = new ConcurrentLinkedQueue<>();
  private final KafkaConsumer<String, byte[]> consumer;
  private final Thread thread;

  DecisionWatch(KafkaClientSettings kafka, String topic) {
    Map<String, Object> config = kafka.clientConfig();
    config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    config.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 50);
    consumer = new KafkaConsumer<>(config, new StringDeserializer(), new ByteArrayDeserializer());
    List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
        .map(p -> new TopicPartition(topic, p.partition())).toList();
    consumer.assign(partitions);
    consumer.seekToEnd(partitions);
    partitions.forEach(consumer::position); // resolve the end now, not at the first poll
    thread = new Thread(this::poll, "decision-watch");
    thread.setDaemon(true);
    thread.start();
  }

  private void poll() {
    try {
      while (true) {
        for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(100))) {
          seen.add(new Seen(r.key(), r.partition(), r.timestamp(), System.nanoTime()));
        }
      }
    } catch (WakeupException e) {
      // closing
    }
  }

  @Override
  public void close() throws InterruptedException {
    consumer.wakeup();
    thread.join(10_000);
    consumer.close(Duration.ofSeconds(5));
  }

  /**
   * The producers with an open transaction on {@code partitions} now, by producer id: right after a
   * kill, on the partitions the killed instance owned (no one else writes them), that is its
   * transaction, which read_committed readers wait behind until the coordinator aborts it.
   */
  static Set<Long> openTransactions(Admin admin, List<TopicPartition> partitions) throws Exception {
    Set<Long> open = new HashSet<>();
    admin.describeProducers(partitions).all().get().values().forEach(state -> {
      for (ProducerState p : state.activeProducers()) {
        if (p.currentTransactionStartOffset().isPresent()) {
          open.add(p.producerId());
        }
      }
    });
    return open;
  }
}
