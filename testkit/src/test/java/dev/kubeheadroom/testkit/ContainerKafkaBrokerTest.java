package dev.kubeheadroom.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.testcontainers.junit.jupiter.Testcontainers;

/** The Testcontainers variant: runs where Docker exists, reported as skipped where it does not. */
@Testcontainers(disabledWithoutDocker = true)
@WithKafka(BrokerKind.CONTAINER)
class ContainerKafkaBrokerTest {

  @Test
  void theContainerBrokerRoundTripsRecordsThroughAReadyTopic(KafkaBroker kafka) {
    // given a topic on the container broker
    assertThat(kafka).isInstanceOf(ContainerKafkaBroker.class);
    String topic = kafka.createTopic("container", 2);

    // when a record is produced
    try (KafkaProducer<String, String> producer = kafka.stringProducer()) {
      producer.send(new ProducerRecord<>(topic, "k", "v"));
    }

    // then it is read back
    assertThat(kafka.consumeAtLeast(topic, 1))
        .extracting(ConsumerRecord::value)
        .containsExactly("v");
  }
}
