package dev.kubeheadroom.actuator;

import dev.kubeheadroom.schemas.OutcomeResult;
import dev.kubeheadroom.schemas.ResizeOutcome;
import java.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a handled change leaves behind: the pod's status annotation, its event, the metrics, and
 * the outcome sent to Kafka (acknowledged at the round's flush).
 */
final class OutcomeWriter {
  private static final Logger LOG = LoggerFactory.getLogger(OutcomeWriter.class);
  private final StatusAnnotator annotator;
  private final EventRecorder events;
  private final ActuatorMetrics metrics;
  private final OutcomePublisher publisher;
  private final Clock clock;

  OutcomeWriter(StatusAnnotator annotator, EventRecorder events, ActuatorMetrics metrics, OutcomePublisher publisher,
      Clock clock) {
    this.annotator = annotator;
    this.events = events;
    this.metrics = metrics;
    this.publisher = publisher;
    this.clock = clock;
  }

  /** {@code status}: for a pod already at the target, the status annotation it has (or null). */
  void finish(PodWork work, OutcomeResult result, String message, boolean patchSent, String status) {
    String ns = work.change().namespace();
    String name = work.change().name();
    boolean noop = result == OutcomeResult.APPLIED && !patchSent;
    // A pod already at its target (a re-read change, or a decision that repeats the one applied)
    // keeps an annotation that already explains its limit: design §8.1 updates it on change, so
    // computedAt stays the time of the decision that set the limit, and no PATCH is sent.
    boolean explained = noop && StatusAnnotator.explains(status, work);
    if ((result == OutcomeResult.APPLIED || result == OutcomeResult.DRY_RUN) && !explained) {
      if (!annotator.annotate(work)) {
        metrics.annotationFailed();
      }
      metrics.podApplied(ns, name, work.change().targetMilli());
    } else if (result == OutcomeResult.GONE) {
      metrics.podGone(ns, name);
    }
    if (!noop && !events.record(work, result, message)) {
      metrics.eventFailed();
    }
    if (result != OutcomeResult.APPLIED && result != OutcomeResult.DRY_RUN) {
      LOG.debug("{} on {}: {} ({})", work.describe(), work.node(), result.wireName(), message);
    }
    metrics.outcome(ns, name, result);
    publisher.publish(new ResizeOutcome(work.node(), work.uid(), ns, name, result,
        work.change().targetMilli(), clock.instant(), message));
  }

}
