package dev.kubeheadroom.demo;

import com.fasterxml.jackson.databind.JsonNode;
import dev.kubeheadroom.kubedouble.RequestJournal;
import dev.kubeheadroom.kubedouble.RequestMatcher;
import dev.kubeheadroom.schemas.HeadroomSerdes;
import dev.kubeheadroom.schemas.NodeDecision;
import dev.kubeheadroom.schemas.PodChange;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * What a failover test counts afterwards: the committed decisions (read_committed, as the
 * actuator reads them) and the resizes the API server accepted.
 */
final class ScaleLedger {
  private ScaleLedger() {}

  /** One pod's change in a committed decision, in topic order. */
  record Change(String pod, String uid, long targetMilli) {}

  /**
   * Committed changes repeating the pod's previous committed change (same uid, same target): a
   * decision emitted twice, as an instance that died after producing but before committing would
   * leave if its transaction were not aborted.
   */
  static List<String> duplicateDecisions(List<Change> changes) {
    Map<String, Change> previous = new HashMap<>();
    List<String> out = new ArrayList<>();
    for (Change c : changes) {
      Change before = previous.put(c.pod(), c);
      if (c.equals(before)) {
        out.add(c.pod() + " " + c.targetMilli() + "m");
      }
    }
    return out;
  }

  /**
   * Accepted resizes asking a pod for the very limits its previous accepted resize set: applied
   * twice (installed's PatchLog counts the same for the fault suite).
   */
  static List<String> duplicateResizes(List<RequestJournal.Entry> journal) {
    RequestMatcher resize = RequestMatcher.resize();
    Map<String, String> previous = new HashMap<>();
    List<String> out = new ArrayList<>();
    for (RequestJournal.Entry e : journal) {
      if (e.code() != 200 || !resize.test(e.request())) {
        continue;
      }
      String pod = e.request().namespace() + "/" + e.request().name();
      String limits = limits(e.body());
      if (limits.equals(previous.put(pod, limits))) {
        out.add(e.at() + " " + pod + " " + limits);
      }
    }
    return out;
  }

  /** Accepted resizes in the journal. */
  static long resizes(List<RequestJournal.Entry> journal) {
    RequestMatcher resize = RequestMatcher.resize();
    return journal.stream().filter(e -> e.code() == 200 && resize.test(e.request())).count();
  }

  /** Every committed pod change on {@code topic}, partition by partition, in offset order. */
  static List<Change> decisions(String bootstrapServers, String topic) {
    Map<String, Object> config = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false, ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    List<Change> out = new ArrayList<>();
    try (KafkaConsumer<String, byte[]> consumer =
        new KafkaConsumer<>(config, new StringDeserializer(), new ByteArrayDeserializer())) {
      List<TopicPartition> partitions = consumer.partitionsFor(topic, Duration.ofSeconds(60)).stream()
          .map(p -> new TopicPartition(topic, p.partition())).toList();
      for (TopicPartition tp : partitions) { // a pod's decisions are all in its node's partition
        consumer.assign(List.of(tp));
        consumer.seekToBeginning(List.of(tp));
        long end = consumer.endOffsets(List.of(tp)).get(tp);
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (consumer.position(tp) < end) {
          if (System.nanoTime() > deadline) {
            throw new AssertionError("could not read " + tp + " to its end in 60 s");
          }
          for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(200))) {
            NodeDecision d = r.value() == null ? null : HeadroomSerdes.decisions().deserialize(topic, r.value());
            if (d != null && !d.dryRun()) {
              for (PodChange c : d.changes()) {
                out.add(new Change(c.namespace() + "/" + c.name(), c.uid(), c.targetMilli()));
              }
            }
          }
        }
      }
    }
    return out;
  }

  private static String limits(String body) {
    try {
      JsonNode root = Serialization.jsonMapper().readTree(body);
      StringBuilder out = new StringBuilder();
      for (JsonNode c : root.path("spec").path("containers")) {
        out.append(c.path("name").asText()).append('=')
            .append(c.path("resources").path("limits").path("cpu").asText()).append(',');
      }
      return out.toString();
    } catch (IOException e) {
      return "unparsed:" + body;
    }
  }
}
