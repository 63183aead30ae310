package dev.kubeheadroom.schemas;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.testkit.KafkaBroker;
import dev.kubeheadroom.testkit.TestKafka;
import dev.kubeheadroom.testkit.WithKafka;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.Test;

@WithKafka
class TopicBootstrapTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(30);

  @Test
  void waitsForTopicsTheBrokerDoesNotKnowYetInsteadOfFailing(KafkaBroker kafka) throws Exception {
    // given topics the broker does not know (as right after createTopics, before its metadata
    // has caught up with the controller's)
    Topics topics = new Topics(TestKafka.uniqueName("bootstrap") + ".");
    try (Admin admin = kafka.admin(); Admin creator = kafka.admin()) {
      // when the partition check starts before they exist
      CompletableFuture<Void> checked = CompletableFuture.runAsync(() -> {
        try {
          TopicBootstrap.checkPartitions(admin, topics, TIMEOUT);
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      });
      // and they are created meanwhile
      TopicBootstrap.ensure(creator, topics, TopicLayout.singleBroker(2), TIMEOUT);

      // then the check waits for them and passes, rather than failing on "unknown topic"
      checked.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
      assertThat(checked).isCompleted();
    }
  }

  // Every checkpoint boundary is a new key, so compaction alone would keep every one forever:
  // the topic is also deleted by age, at twice the raw events' retention.
  @Test
  void checkpointsAreCompactedAndDeletedAtTwiceTheRawRetention(KafkaBroker kafka) throws Exception {
    Topics topics = new Topics(TestKafka.uniqueName("checkpoints") + ".");
    TopicLayout layout = TopicLayout.singleBroker(2);
    try (Admin admin = kafka.admin()) {
      TopicBootstrap.ensure(admin, topics, layout, TIMEOUT);
      ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topics.checkpoints());
      Config config = admin.describeConfigs(List.of(resource)).all().get(30, TimeUnit.SECONDS).get(resource);
      assertThat(config.get("cleanup.policy").value()).isEqualTo("compact,delete");
      assertThat(Long.parseLong(config.get("retention.ms").value()))
          .isEqualTo(layout.retention().toMillis() * 2);
    }
  }

  // A production Kafka's broker default is min.insync.replicas=1: an acks=all write would then be
  // acknowledged with one copy. Every topic Headroom creates carries the layout's own value.
  @Test
  void everyCreatedTopicCarriesTheLayoutsMinInsyncReplicas(KafkaBroker kafka) throws Exception {
    Topics topics = new Topics(TestKafka.uniqueName("minisr") + ".");
    TopicLayout layout = TopicLayout.singleBroker(2);
    try (Admin admin = kafka.admin()) {
      TopicBootstrap.ensure(admin, topics, layout, TIMEOUT);
      List<ConfigResource> resources = topics.all().stream()
          .map(name -> new ConfigResource(ConfigResource.Type.TOPIC, name)).toList();
      var configs = admin.describeConfigs(resources).all().get(30, TimeUnit.SECONDS);
      assertThat(configs).hasSize(topics.all().size());
      configs.values().forEach(config -> {
        assertThat(config.get("min.insync.replicas").value()).isEqualTo("1");
        assertThat(config.get("min.insync.replicas").source())
            .isEqualTo(org.apache.kafka.clients.admin.ConfigEntry.ConfigSource.DYNAMIC_TOPIC_CONFIG);
      });
    }
  }

  // The gang topics (§11.6) are the topology's repartition by gang and its join back by node:
  // gang-ceilings is read beside the node-keyed topics, so it needs their partition count.
  @Test
  void gangTopicsAreCreatedWithTheNodeKeyedPartitionsAndRetention(KafkaBroker kafka) throws Exception {
    Topics topics = new Topics(TestKafka.uniqueName("gangs") + ".");
    TopicLayout layout = TopicLayout.singleBroker(3);
    try (Admin admin = kafka.admin()) {
      TopicBootstrap.ensure(admin, topics, layout, TIMEOUT);
      var described = admin.describeTopics(topics.gangs()).allTopicNames().get(30, TimeUnit.SECONDS);
      for (String name : topics.gangs()) {
        assertThat(described.get(name).partitions()).as(name).hasSize(3);
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, name);
        Config config = admin.describeConfigs(List.of(resource)).all().get(30, TimeUnit.SECONDS).get(resource);
        assertThat(config.get("cleanup.policy").value()).as(name).isEqualTo("delete");
        assertThat(Long.parseLong(config.get("retention.ms").value())).as(name)
            .isEqualTo(layout.retention().toMillis());
      }
    }
  }

  @Test
  void aGangCeilingsTopicWithAnotherPartitionCountIsRefused(KafkaBroker kafka) {
    Topics topics = new Topics(TestKafka.uniqueName("gangsplit") + ".");
    kafka.createTopics(java.util.Map.of(topics.gangCeilings(), 1));
    try (Admin admin = kafka.admin()) {
      org.assertj.core.api.Assertions.assertThatThrownBy(
          () -> TopicBootstrap.ensure(admin, topics, TopicLayout.singleBroker(2), TIMEOUT))
          .isInstanceOf(TopicBootstrap.LayoutException.class)
          .hasMessageContaining(topics.gangCeilings());
    }
  }
}
