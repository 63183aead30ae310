package dev.kubeheadroom.topology;

import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A stream thread's producer whose commit, once begun, ends committed or failed, never timed out
 * (DESIGN.md, "After a restart": a commit that timed out). Kafka Streams 4.4 treats a
 * {@link TimeoutException} from {@code sendOffsetsToTransaction} or {@code commitTransaction}
 * under exactly-once as task corruption: it closes the tasks dirty and revives them from their
 * changelogs, while the producer still holds the transaction it was committing (the abort it
 * then asks for is refused: a commit that timed out must be retried) and commits it when Kafka
 * is back, after the revived tasks restored: their stores then miss what the changelogs hold.
 * Retrying the same call until Kafka answers is what the producer's contract asks; the stream
 * thread waits here, as it could not work without Kafka anyway, and a definitive answer (fenced,
 * aborted) still reaches Streams as before.
 */
final class CommitRetryingProducer extends ForwardingProducer {
  private static final Logger LOG = LoggerFactory.getLogger(CommitRetryingProducer.class);

  CommitRetryingProducer(Producer<byte[], byte[]> delegate) {
    super(delegate);
  }

  @Override
  public void sendOffsetsToTransaction(Map<TopicPartition, OffsetAndMetadata> offsets,
      ConsumerGroupMetadata groupMetadata) {
    untilAnswered("sendOffsetsToTransaction", () -> delegate.sendOffsetsToTransaction(offsets, groupMetadata));
  }

  @Override
  public void commitTransaction() {
    untilAnswered("commitTransaction", delegate::commitTransaction);
  }

  private static void untilAnswered(String call, Runnable attempt) {
    for (int tries = 1; ; tries++) {
      try {
        attempt.run();
        return;
      } catch (TimeoutException e) {
        LOG.warn("{} timed out (attempt {}); retrying until Kafka answers: {}", call, tries, e.getMessage());
      }
    }
  }
}
