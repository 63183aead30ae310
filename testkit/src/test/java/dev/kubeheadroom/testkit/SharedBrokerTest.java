package dev.kubeheadroom.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** A second class asking for a broker gets the same one: one start per JVM. */
@WithKafka
class SharedBrokerTest {

  private static KafkaBroker fromBeforeAll;

  @BeforeAll
  static void remember(KafkaBroker kafka) {
    fromBeforeAll = kafka;
  }

  @Test
  void everyTestClassAndTheStaticHelperShareOneBroker(KafkaBroker kafka) {
    assertThat(kafka).isSameAs(fromBeforeAll).isSameAs(TestKafka.shared());
    assertThat(kafka).isInstanceOf(EmbeddedKafkaBroker.class);
    assertThat(TestKafka.startsSoFar()).isEqualTo(1);
    assertThat(kafka.bootstrapServers()).startsWith("127.0.0.1:");
  }
}
