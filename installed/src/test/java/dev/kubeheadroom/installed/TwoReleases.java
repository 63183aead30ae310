package dev.kubeheadroom.installed;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.GroupListing;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Two clusters sharing one Kafka, each with its release of the chart and its own
 * {@code kafka.topicPrefix} (what the prefix is for): neither release reads the other's records,
 * and no consumer group or Streams application id is shared. Run in all-in-one mode (one JVM per
 * release) to stay within the tier's time: the flags are the same in split mode.
 *
 * @param broker the broker the first release (the tier's) already uses
 * @param ns the first release's tenant namespace
 */
record TwoReleases(BrokerProcess broker, Path runDir, Map<String, Object> modeValues, String ns) {
  private static final String OTHER_PREFIX = "other.";

  /** Installs the second release into {@code other} and checks that the two share nothing. */
  void check(Cluster other) throws Exception {
    // given a second cluster, with its own release prefixed "other." on the same broker
    other.managedNamespace("team-b");
    Map<String, Object> values = new HashMap<>(Installation.testValues(broker.bootstrapServers()));
    values.putAll(modeValues);
    values.put("kafka.topicPrefix", OTHER_PREFIX);
    try (Installation second = Installation.install(other, runDir, "other", "headroom-other", values)) {
      // when it manages a pod of its own
      InstalledTier.enforce(other);
      other.node("b1", "8");
      other.pod("team-b", "solo", "b1", "1");
      other.awaitLimits(Map.of("team-b/solo", 8_000L));

      // then each release's pods topic holds only its own cluster's pods ...
      assertThat(values("headroom.pods")).as("release one's pods").noneMatch(v -> v.contains("team-b"))
          .anyMatch(v -> v.contains(ns));
      assertThat(values(OTHER_PREFIX + "pods")).as("release two's pods").noneMatch(v -> v.contains(ns))
          .anyMatch(v -> v.contains("team-b"));
      // ... and no consumer group (actuator group, Streams application id) reads both prefixes
      Map<String, Set<String>> prefixesByGroup = prefixesByGroup();
      System.out.println("consumer groups and the topic prefixes they read: " + prefixesByGroup);
      assertThat(prefixesByGroup).as("consumer groups reading both releases' topics")
          .allSatisfy((group, prefixes) -> assertThat(prefixes).as(group).hasSizeLessThanOrEqualTo(1));
      assertThat(prefixesByGroup.values()).as("groups per prefix").anyMatch(p -> p.contains(OTHER_PREFIX))
          .anyMatch(p -> p.contains("headroom."));
    }
  }

  /** Each consumer group on the broker → the prefixes of the topics it has committed offsets on. */
  private Map<String, Set<String>> prefixesByGroup() throws ExecutionException, InterruptedException {
    Map<String, Set<String>> out = new TreeMap<>();
    try (Admin admin = broker.admin()) {
      for (GroupListing group : admin.listGroups().all().get()) {
        Set<String> prefixes = new TreeSet<>();
        // (a Streams application's own repartition topics start with its application id: not a prefix)
        admin.listConsumerGroupOffsets(group.groupId()).partitionsToOffsetAndMetadata().get().keySet().stream()
            .map(tp -> tp.topic()).filter(t -> t.startsWith(OTHER_PREFIX) || t.startsWith("headroom."))
            .forEach(t -> prefixes.add(t.startsWith(OTHER_PREFIX) ? OTHER_PREFIX : "headroom."));
        out.put(group.groupId(), prefixes);
      }
    }
    return out;
  }

  /** Every record value of {@code topic}, read from the beginning to its end. */
  private List<String> values(String topic) {
    Map<String, Object> config = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers(),
        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(config, new StringDeserializer(),
        new StringDeserializer())) {
      List<TopicPartition> partitions = consumer.partitionsFor(topic, Duration.ofSeconds(10)).stream()
          .map(p -> new TopicPartition(topic, p.partition())).toList();
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
      List<String> out = new ArrayList<>();
      long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while (partitions.stream().anyMatch(tp -> consumer.position(tp) < end.get(tp))) {
        assertThat(System.nanoTime()).as("reading " + topic + " to its end").isLessThan(deadline);
        for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(200))) {
          if (r.value() != null) {
            out.add(r.value());
          }
        }
      }
      return out;
    }
  }
}
