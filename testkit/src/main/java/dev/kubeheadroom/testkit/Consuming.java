package dev.kubeheadroom.testkit;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.Deserializer;

/** Polling with a deadline for {@link KafkaBroker#consumeUntil}. */
final class Consuming {

  private static final Duration POLL = Duration.ofMillis(100);
  private static final int SHOWN_ON_FAILURE = 5;

  private Consuming() {}

  static <K, V> List<ConsumerRecord<K, V>> until(
      KafkaBroker broker,
      String topic,
      Deserializer<K> keys,
      Deserializer<V> values,
      Predicate<? super List<ConsumerRecord<K, V>>> done,
      Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    List<ConsumerRecord<K, V>> seen = new ArrayList<>();
    boolean assigned = false;
    try (KafkaConsumer<K, V> consumer = broker.consumer(null, keys, values)) {
      while (!done.test(seen)) {
        if (System.nanoTime() >= deadline) {
          throw new AssertionError(failure(broker, topic, timeout, assigned, seen));
        }
        if (!assigned) {
          assigned = assignAll(consumer, topic);
        } else {
          consumer.poll(POLL).forEach(seen::add);
        }
      }
    }
    return seen;
  }

  /** Assigns every partition from offset 0; false (caller retries) while the topic is unknown. */
  private static boolean assignAll(KafkaConsumer<?, ?> consumer, String topic) {
    List<PartitionInfo> infos;
    try {
      infos = consumer.partitionsFor(topic, POLL.multipliedBy(5));
    } catch (TimeoutException e) {
      return false;
    }
    if (infos == null || infos.isEmpty()) {
      return false;
    }
    List<TopicPartition> partitions =
        infos.stream().map(p -> new TopicPartition(topic, p.partition())).toList();
    consumer.assign(partitions);
    consumer.seekToBeginning(partitions);
    return true;
  }

  private static String failure(
      KafkaBroker broker,
      String topic,
      Duration timeout,
      boolean assigned,
      List<? extends ConsumerRecord<?, ?>> seen) {
    if (!assigned) {
      return "topic " + topic + " did not appear on " + broker.description() + " within " + timeout;
    }
    List<String> last =
        seen.subList(Math.max(0, seen.size() - SHOWN_ON_FAILURE), seen.size()).stream()
            .map(r -> r.partition() + "@" + r.offset() + " " + r.key() + "=" + r.value())
            .toList();
    return "condition on topic " + topic + " not met within " + timeout + " after reading "
        + seen.size() + " record(s); last: " + last;
  }
}
