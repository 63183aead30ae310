package dev.kubeheadroom.topology;

import dev.kubeheadroom.schemas.DeadLetter;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.streams.errors.DeserializationExceptionHandler;
import org.apache.kafka.streams.errors.ErrorHandlerContext;

/**
 * A source record whose key or value the source's deserializer rejected: dead-lettered and
 * counted, and the next record is read. The sources read raw bytes and decode in {@link
 * KeyedDecoder}, so this only catches what Kafka's own deserializers refuse.
 */
public final class DeadLetterDeserializationHandler extends DeadLetterHandler
    implements DeserializationExceptionHandler {
  @Override
  public Response handleError(ErrorHandlerContext context, ConsumerRecord<byte[], byte[]> record,
      Exception exception) {
    return Response.resume(letters.letter(context, DeadLetters.rawKey(context),
        DeadLetter.Kind.UNREADABLE, exception));
  }
}
