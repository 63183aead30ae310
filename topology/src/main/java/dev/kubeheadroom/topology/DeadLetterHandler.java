package dev.kubeheadroom.topology;

import java.util.Map;
import org.apache.kafka.common.Configurable;

/**
 * What the topology's Kafka exception handlers share: the {@link DeadLetters} they write,
 * configured from the Streams properties Kafka hands them.
 */
abstract sealed class DeadLetterHandler implements Configurable
    permits DeadLetterDeserializationHandler, DeadLetterProcessingHandler, DeadLetterProductionHandler {
  DeadLetters letters;

  @Override
  public void configure(Map<String, ?> configs) {
    letters = DeadLetters.configured(configs);
  }
}
