package dev.kubeheadroom.topology;

import dev.kubeheadroom.schemas.DeadLetter;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.RecordBatchTooLargeException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.ProductionExceptionHandler;

/**
 * Kafka refused an output: a record too large, or one that would not serialize. It is counted and
 * dead-lettered (the dead letter names the output topic and carries the start of the value) and
 * processing resumes; a transient error is retried instead, as Streams' default does.
 *
 * <p>A backstop, not the plan: under exactly-once a refused send also dooms the open
 * transaction, so Streams aborts it and the task re-reads the same input. The topology therefore
 * never hands Kafka a record over its budget (decisions are split, {@link DecisionParts}; dead
 * letters are bounded), and this handler exists so that a case no one foresaw is counted and
 * named rather than silent.
 */
public final class DeadLetterProductionHandler extends DeadLetterHandler
    implements ProductionExceptionHandler {
  @Override
  public Response handleError(ErrorHandlerContext context, ProducerRecord<byte[], byte[]> record,
      Exception exception) {
    if (exception instanceof RetriableException) {
      return Response.retry();
    }
    DeadLetter.Kind kind = exception instanceof RecordTooLargeException
        || exception instanceof RecordBatchTooLargeException
        ? DeadLetter.Kind.TOO_LARGE : DeadLetter.Kind.PRODUCTION_ERROR;
    return Response.resume(letters.letter(context, keyOf(record.key()), kind,
        new IllegalStateException("output to " + record.topic() + " not sent: " + exception, exception)));
  }

  @Override
  @SuppressWarnings("rawtypes")
  public Response handleSerializationError(ErrorHandlerContext context, ProducerRecord record,
      Exception exception, SerializationExceptionOrigin origin) {
    Object key = record.key();
    return Response.resume(letters.letter(context, key == null ? null : key.toString(),
        DeadLetter.Kind.PRODUCTION_ERROR, new IllegalStateException(
            "output to " + record.topic() + " not serialized (" + origin + "): " + exception, exception)));
  }

  private static String keyOf(byte[] key) {
    return key == null ? null : new String(key, StandardCharsets.UTF_8);
  }
}
