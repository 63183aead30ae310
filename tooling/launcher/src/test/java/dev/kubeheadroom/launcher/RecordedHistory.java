package dev.kubeheadroom.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.schemas.ClusterConfig;
import dev.kubeheadroom.schemas.ContainerKind;
import dev.kubeheadroom.schemas.ContainerSnapshot;
import dev.kubeheadroom.schemas.HeadroomKeys;
import dev.kubeheadroom.schemas.HeadroomSerdes;
import dev.kubeheadroom.schemas.JsonCodec;
import dev.kubeheadroom.schemas.KafkaClientSettings;
import dev.kubeheadroom.schemas.NamespaceInfo;
import dev.kubeheadroom.schemas.NodeEvent;
import dev.kubeheadroom.schemas.NodeSnapshot;
import dev.kubeheadroom.schemas.PodSnapshot;
import dev.kubeheadroom.schemas.ResizeStatus;
import dev.kubeheadroom.schemas.TopicBootstrap;
import dev.kubeheadroom.schemas.TopicLayout;
import dev.kubeheadroom.schemas.Topics;
import dev.kubeheadroom.testkit.KafkaBroker;
import dev.kubeheadroom.testkit.TestKafka;
import dev.kubeheadroom.topology.TopologyListener;
import dev.kubeheadroom.topology.TopologyRunner;
import dev.kubeheadroom.topology.TopologySettings;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * A history for the documented {@code audit} and {@code explain} commands to read, recorded with a
 * real exactly-once topology (as {@code AuditCommandTest} does): node {@code n1} (16 cores), pods
 * {@code team-a/web-1} (2 cores) and {@code team-a/web-2} (6 cores).
 *
 * @param topics the history's topics (a unique prefix)
 * @param moment a moment inside the history: after the first decisions, before web-1's limit change
 */
record RecordedHistory(Topics topics, Instant moment) {

  static RecordedHistory record(KafkaBroker kafka, Path stateDir) throws Exception {
    Topics history = new Topics(TestKafka.uniqueName("docs-history") + ".");
    try (Admin admin = kafka.admin()) {
      TopicBootstrap.ensure(admin, history, TopicLayout.singleBroker(2), Duration.ofSeconds(30));
    }
    TopologyRunner runner = TopologyRunner.start(new TopologyRunner.Options(TestKafka.uniqueName("docs-history-app"),
        new KafkaClientSettings(kafka.bootstrapServers(), Map.of("commit.interval.ms", "100")), stateDir),
        TopologySettings.defaults(history), TopologyListener.NONE);
    Instant moment;
    try (runner; KafkaProducer<String, byte[]> p = kafka.producer(new StringSerializer(), new ByteArraySerializer())) {
      assertThat(runner.awaitRunning(Duration.ofSeconds(60))).isTrue();
      p.send(new ProducerRecord<>(history.config(), HeadroomKeys.CONFIG_NAME,
          JsonCodec.encode(ClusterConfig.DEFAULTS.withDryRun(false))));
      p.send(new ProducerRecord<>(history.namespaces(), "team-a", JsonCodec.encode(new NamespaceInfo("team-a",
          Map.of(HeadroomKeys.MODE_LABEL, HeadroomKeys.MANAGED), 0))));
      for (NodeEvent e : List.<NodeEvent>of(new NodeSnapshot("n1", 16000, "linux", false, Map.of()),
          pod("web-1", 2000, 0), pod("web-2", 6000, 0))) {
        String topic = e instanceof NodeSnapshot ? history.nodes() : history.pods();
        p.send(new ProducerRecord<>(topic, e.node(), JsonCodec.encode(e)));
      }
      p.flush();
      kafka.consumeUntil(history.decisions(), new StringDeserializer(),
          HeadroomSerdes.decisions().deserializer(), rs -> !rs.isEmpty(), Duration.ofSeconds(60));
      moment = Instant.now();
      p.send(new ProducerRecord<>(history.pods(), "n1", JsonCodec.encode(pod("web-1", 2000, 4000)))).get();
    }
    return new RecordedHistory(history, moment);
  }

  static PodSnapshot pod(String name, long requestMilli, long limitMilli) {
    return new PodSnapshot("uid-" + name, "team-a", name, "n1", "Running", "Burstable", "1", 1, null, 0,
        null, false, List.of(), List.of(new ContainerSnapshot("app", ContainerKind.APP, requestMilli,
        limitMilli, false, false)), ResizeStatus.NONE);
  }
}
