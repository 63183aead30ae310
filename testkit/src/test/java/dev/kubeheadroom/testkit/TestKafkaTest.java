package dev.kubeheadroom.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.opentest4j.TestAbortedException;

class TestKafkaTest {

  @AfterEach
  void clearProperty() {
    System.clearProperty(TestKafka.KIND_PROPERTY);
  }

  @Test
  void theEmbeddedBrokerIsTheDefault() {
    assertThat(TestKafka.resolve(BrokerKind.DEFAULT)).isEqualTo(BrokerKind.EMBEDDED);
  }

  @Test
  void thePropertyChoosesTheContainerBroker() {
    System.setProperty(TestKafka.KIND_PROPERTY, "container");
    assertThat(TestKafka.resolve(BrokerKind.DEFAULT)).isEqualTo(BrokerKind.CONTAINER);
  }

  @Test
  void anExplicitKindWinsOverTheProperty() {
    System.setProperty(TestKafka.KIND_PROPERTY, "container");
    assertThat(TestKafka.resolve(BrokerKind.EMBEDDED)).isEqualTo(BrokerKind.EMBEDDED);
  }

  @Test
  void anUnknownKindIsRejectedWithTheAllowedValues() {
    System.setProperty(TestKafka.KIND_PROPERTY, "docker");
    assertThatThrownBy(() -> TestKafka.resolve(BrokerKind.DEFAULT))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("embedded or container");
  }

  @Test
  void uniqueNamesDoNotRepeat() {
    assertThat(TestKafka.uniqueName("pods")).isNotEqualTo(TestKafka.uniqueName("pods"));
  }

  @Test
  void withoutDockerAskingForTheContainerBrokerAbortsTheTestInsteadOfFailingIt() {
    assumeFalse(ContainerKafkaBroker.dockerAvailable(), "Docker is here: nothing to check");

    assertThatThrownBy(() -> TestKafka.shared(BrokerKind.CONTAINER))
        .isInstanceOf(TestAbortedException.class)
        .hasMessageContaining("Docker is not available");
  }
}
