package dev.kubeheadroom.schemas;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.testkit.KafkaBroker;
import dev.kubeheadroom.testkit.TestKafka;
import dev.kubeheadroom.testkit.WithKafka;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
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
}
