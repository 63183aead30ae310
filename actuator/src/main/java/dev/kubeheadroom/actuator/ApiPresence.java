package dev.kubeheadroom.actuator;

import java.time.Duration;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether the API server answers the actuator's reads, as its loop last found them. A try whose
 * read of the pod went unanswered (5xx, 429, no answer) is not a try of the change: an API server
 * that answers nothing has refused no resize, and giving the change up as {@code error} made the
 * topology back the pod off for its {@code backoffPeriod} (60 s) from then, so a 30 s outage
 * delayed the limits 35-39 s past its end (the fault suite's "API server down 30 s" row). While
 * away, no change is tried and the stage is not ready; once per {@link #LOOK_AGAIN} (or the
 * server's {@code Retry-After}, if longer, capped) the next ready change is tried, and the first
 * read answered resumes them all. Used on the loop thread ({@link #answers} is read by probes too).
 */
final class ApiPresence {
  private static final Logger LOG = LoggerFactory.getLogger(ApiPresence.class);
  /** How often, while the API server does not answer, one change is tried again. */
  static final Duration LOOK_AGAIN = Duration.ofSeconds(1);

  private final LongSupplier ticker;
  private final Duration maxServerDelay;
  private volatile boolean answers = true;
  private long lookAgainAt; // ticker time

  /** {@code maxServerDelay}: the cap on a wait the server asks for ({@link RetryPolicy#maxServerDelay}). */
  ApiPresence(LongSupplier ticker, Duration maxServerDelay) {
    this.ticker = ticker;
    this.maxServerDelay = maxServerDelay;
  }

  boolean answers() {
    return answers;
  }

  /** Whether a change may be tried now: the API server answers, or the next look is due. */
  boolean mayTry() {
    return answers || ticker.getAsLong() >= lookAgainAt;
  }

  /** When the next look is due (ticker time): what waits for the API server waits until then. */
  long lookAgainAt() {
    return lookAgainAt;
  }

  /**
   * A pod's read went unanswered ({@code failure}): the API server is away, and the change waits,
   * its try not counted, until {@link #lookAgainAt}.
   */
  void unanswered(OutcomeClassifier.Verdict.Transient failure) {
    if (answers) {
      LOG.warn("The API server does not answer ({}); no resize until it does, trying one change every {} ms",
          failure.message(), LOOK_AGAIN.toMillis());
    }
    answers = false;
    Duration asked = failure.retryAfter().compareTo(maxServerDelay) > 0 ? maxServerDelay : failure.retryAfter();
    lookAgainAt = ticker.getAsLong() + (asked.compareTo(LOOK_AGAIN) > 0 ? asked : LOOK_AGAIN).toNanos();
  }

  /** The API server answered a read. */
  void answered() {
    if (!answers) {
      LOG.info("The API server answers again; resizing resumes");
    }
    answers = true;
  }

  /**
   * Nothing waits for the API server (the changes that found it away were superseded, answered
   * without it, or went to another replica): unknown, so no longer counted away.
   */
  void nothingWaits() {
    answers = true;
  }
}
