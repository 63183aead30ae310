package dev.kubeheadroom.actuator;

import java.time.Duration;
import java.util.function.LongSupplier;
import org.apache.kafka.clients.consumer.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether Kafka answers, as the actuator's loop last found it. While it does not, the actuator
 * tries no resize (it could not record the outcome), reports not ready and waits: a restart would
 * not bring Kafka back. Looked at again once per {@link #RETRY}.
 */
final class KafkaPresence {
  private static final Logger LOG = LoggerFactory.getLogger(KafkaPresence.class);
  /** How often the loop looks again while Kafka does not answer. */
  static final Duration RETRY = Duration.ofSeconds(5);
  private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(2);

  private final LongSupplier ticker;
  private final Consumer<?, ?> consumer;
  private volatile boolean answers = true;
  private long lookAgainAt; // ticker time
  private long nextCheckAt = Long.MIN_VALUE; // ticker time

  /** {@code consumer}: the decisions consumer, asked on the loop thread (its one user). */
  KafkaPresence(LongSupplier ticker, Consumer<?, ?> consumer) {
    this.ticker = ticker;
    this.consumer = consumer;
  }

  boolean answers() {
    return answers;
  }

  /** Kafka did not answer ({@code why}): away until a look finds it again. */
  void away(String why) {
    if (answers) {
      LOG.warn("Kafka does not answer ({}); no resize until it does, looking again every {} s", why,
          RETRY.toSeconds());
    }
    answers = false;
    lookAgainAt = ticker.getAsLong() + RETRY.toNanos();
  }

  /** When the next look is due (ticker time): what waits for Kafka waits until then. */
  long lookAgainAt() {
    return lookAgainAt;
  }

  /**
   * Whether Kafka answers: at once while it does; while away, one {@link #probe} per
   * {@link #RETRY} (its {@code TimeoutException}, while Kafka is still away, goes to the loop).
   */
  boolean answersNow() {
    if (answers) {
      return true;
    }
    if (ticker.getAsLong() < lookAgainAt) {
      return false;
    }
    probe();
    back();
    return true;
  }

  /**
   * While Kafka answers, one {@link #probe} per {@link #RETRY}: an idle actuator sends nothing
   * else that would tell it is away. Its {@code TimeoutException} makes the loop call {@link #away}.
   */
  void check() {
    long now = ticker.getAsLong();
    if (answers && now >= nextCheckAt) {
      nextCheckAt = now + RETRY.toNanos();
      probe();
    }
  }

  /**
   * One small request only Kafka answers, or a {@code TimeoutException}: the group's committed
   * offsets (its coordinator), or without partitions the topic list (a broker; never the cache).
   */
  private void probe() {
    if (consumer.assignment().isEmpty()) {
      consumer.listTopics(PROBE_TIMEOUT);
    } else {
      consumer.committed(consumer.assignment(), PROBE_TIMEOUT);
    }
  }

  /** Waits {@link #RETRY}; false when interrupted (the interrupt kept). */
  static boolean pause() {
    try {
      Thread.sleep(RETRY.toMillis());
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** Kafka answered. */
  void back() {
    if (!answers) {
      LOG.info("Kafka answers again; resizing resumes");
    }
    answers = true;
  }
}
