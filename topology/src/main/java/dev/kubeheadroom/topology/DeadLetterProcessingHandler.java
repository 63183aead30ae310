package dev.kubeheadroom.topology;

import dev.kubeheadroom.schemas.DeadLetter;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.ProcessingExceptionHandler;
import org.apache.kafka.streams.processor.api.Record;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A processor threw (a bug, or a record no check foresaw): the record goes to the dead-letter
 * topic with the exception, its source and the processor, it is counted, and processing resumes
 * with the next record. Failing instead would crash-loop the topology on the same record: it is
 * read again after every restart. A punctuation that throws ({@code record} null) is dead-lettered
 * under the node it failed on ({@link NodeFailure}). A failure of Kafka itself ({@link
 * KafkaUnavailable}) is not the record's fault and fails the thread instead.
 */
public final class DeadLetterProcessingHandler extends DeadLetterHandler
    implements ProcessingExceptionHandler {
  private static final Logger LOG = LoggerFactory.getLogger(DeadLetterProcessingHandler.class);

  @Override
  public Response handleError(ErrorHandlerContext context, Record<?, ?> record, Exception exception) {
    if (KafkaUnavailable.causedBy(exception)) {
      // Kafka, not the record, failed (a punctuation's send while the broker is away): dead-
      // lettering would drop a good decision. Fail the thread; the runner replaces it and the
      // uncommitted work is redone from the last commit.
      return Response.fail();
    }
    String key = exception instanceof NodeFailure f ? f.node()
        : record != null && record.key() instanceof String k ? k : DeadLetters.rawKey(context);
    // One line per failure (they are counted too); the stack only when asked for.
    LOG.warn("Processor {} failed on {}-{}@{} (key {}), dead-lettered, continuing: {}",
        context.processorNodeId(), context.topic(), context.partition(), context.offset(), key,
        DeadLetters.describe(exception));
    LOG.debug("Processor {} failure", context.processorNodeId(), exception);
    return Response.resume(letters.letter(context, key, DeadLetter.Kind.PROCESSING_ERROR, exception));
  }
}
