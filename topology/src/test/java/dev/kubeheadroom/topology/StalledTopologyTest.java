package dev.kubeheadroom.topology;

import static dev.kubeheadroom.topology.Fixtures.managedNs;
import static dev.kubeheadroom.topology.Fixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.schemas.HeadroomKeys;
import dev.kubeheadroom.schemas.JsonCodec;
import dev.kubeheadroom.schemas.KafkaClientSettings;
import dev.kubeheadroom.schemas.NodeSnapshot;
import dev.kubeheadroom.schemas.TopicBootstrap;
import dev.kubeheadroom.schemas.TopicLayout;
import dev.kubeheadroom.schemas.Topics;
import dev.kubeheadroom.testkit.KafkaBroker;
import dev.kubeheadroom.testkit.TestKafka;
import dev.kubeheadroom.testkit.WithKafka;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A topology whose tasks stop making progress while Kafka answers reports itself failed within its
 * stall bound (docs/reliability.md, finding 7: after a transactional commit timed out across a
 * Kafka outage the tasks were closed as corrupted and never ran again, the client RUNNING or
 * REBALANCING for 6 and 15 minutes; the stage must exit for the kubelet to start a new client).
 * The stall is played by a stream thread held inside a node's evaluation: no record processed, no
 * punctuation, the client still RUNNING, the broker answering.
 *
 * <p>Then the replacement, as the stage's restart makes it (split mode: the kubelet starts the
 * container again; {@code headroom run}: the stage in process), must run at once although the
 * stuck client is still a member of the group. With dynamic membership it cannot: its join puts
 * the group into a rebalance that waits for the stuck member to rejoin until the rebalance timeout,
 * {@code max.poll.interval.ms} (5 min), while the stuck member's heartbeat thread keeps it alive
 * (finding 7's second half). With static membership ({@code group.instance.id}, the pod's name,
 * which a restarted container keeps) the coordinator hands the stuck member's place to the
 * replacement and fences the stuck one (KIP-345; GroupMetadataManager's classic-group join of a
 * known static member, Kafka 4).
 */
@WithKafka
class StalledTopologyTest {
  @TempDir Path stateDir;
  @TempDir Path replacementStateDir;

  @Test
  void aTopologyThatMakesNoProgressWhileKafkaAnswersReportsItselfFailedWithinItsBound(KafkaBroker kafka)
      throws Exception {
    Topics topics = new Topics(TestKafka.uniqueName("stall") + ".");
    try (Admin admin = kafka.admin()) {
      TopicBootstrap.ensure(admin, topics, TopicLayout.singleBroker(1), Duration.ofSeconds(30));
    }
    CountDownLatch release = new CountDownLatch(1);
    CountDownLatch held = new CountDownLatch(1);
    TopologyListener stuck = new TopologyListener() {
      @Override
      public void evaluated(String node, long nanos) {
        held.countDown();
        try {
          release.await(); // the stream thread makes no progress from here on
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    };
    Duration bound = Duration.ofSeconds(6);
    // as the chart passes it: --group-instance-id=$(HEADROOM_POD_NAME)
    TopologyRunner.Options options = new TopologyRunner.Options(TestKafka.uniqueName("stall-app"),
        new KafkaClientSettings(kafka.bootstrapServers(), Map.of()), stateDir, 0, "kube-headroom-topology-0");
    try (KafkaProducer<String, byte[]> producer = kafka.producer(new StringSerializer(), new ByteArraySerializer())) {
      producer.send(new ProducerRecord<>(topics.config(), HeadroomKeys.CONFIG_NAME,
          JsonCodec.encode(TopologyHarness.enforcing())));
      producer.send(new ProducerRecord<>(topics.namespaces(), "team-a", JsonCodec.encode(managedNs("team-a"))));
      TopologyRunner runner = TopologyRunner.start(options, TopologySettings.defaults(topics), stuck, bound);
      try {
        assertThat(runner.awaitRunning(Duration.ofSeconds(90))).isTrue();
        // healthy and idle: punctuating, no stall past the bound
        Thread.sleep(bound.plusSeconds(3).toMillis());
        assertThat(runner.failure()).as("an idle, healthy topology").isEmpty();

        // when: a node is evaluated, and its evaluation never returns
        producer.send(new ProducerRecord<>(topics.nodes(), "n1",
            JsonCodec.encode(new NodeSnapshot("n1", 16000, "linux", false, Map.of()))));
        producer.send(new ProducerRecord<>(topics.pods(), "n1", JsonCodec.encode(pod("team-a", "web-1", "n1", 1000, 0))));
        producer.flush();
        assertThat(held.await(60, TimeUnit.SECONDS)).as("the evaluation reached").isTrue();
        long stuckAt = System.nanoTime();

        // then: the runner reports the stall as its failure, one bound (and a probe) later,
        // although the client still says RUNNING
        while (runner.failure().isEmpty() && System.nanoTime() - stuckAt < Duration.ofSeconds(60).toNanos()) {
          Thread.sleep(200);
        }
        assertThat(runner.failure()).containsInstanceOf(TopologyStalled.class);
        Duration after = Duration.ofNanos(System.nanoTime() - stuckAt);
        assertThat(after).isGreaterThanOrEqualTo(bound.minusSeconds(2)).isLessThan(bound.plusSeconds(20));
        assertThat(runner.state()).isEqualTo(org.apache.kafka.streams.KafkaStreams.State.RUNNING);

        // and its replacement, started while the stuck client still heartbeats, takes over the
        // group at once and decides the node the stuck one never finished
        CountDownLatch decided = new CountDownLatch(1);
        long replacedAt = System.nanoTime();
        // (its own state directory: the stuck client keeps its lock on this JVM's; a container
        // restarted by the kubelet is a new JVM)
        TopologyRunner.Options fresh = new TopologyRunner.Options(options.applicationId(), options.kafka(),
            replacementStateDir, 0, options.groupInstanceId());
        try (TopologyRunner replacement = TopologyRunner.start(fresh, TopologySettings.defaults(topics),
            new TopologyListener() {
              @Override
              public void evaluated(String node, long nanos) {
                decided.countDown();
              }
            }, Duration.ofMinutes(2))) {
          assertThat(decided.await(40, TimeUnit.SECONDS))
              .as("the replacement evaluated n1 (dynamic membership waits max.poll.interval.ms, 5 min)").isTrue();
          System.out.printf("replacement evaluated n1 %d ms after it started%n",
              Duration.ofNanos(System.nanoTime() - replacedAt).toMillis());
        }
      } finally {
        release.countDown();
        runner.close();
      }
    }
  }
}
