package dev.kubeheadroom.schemas;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One daemon thread that keeps reading whole topics with a {@link TopicReader} until closed: the
 * reader-thread lifecycle the cluster-state reader (actuator, webhook) and ingest's status writer
 * share. It assigns the topics (again after a pause while they do not exist yet), hands every
 * record to its {@link Handler}, says after each poll whether the topics have been read up to
 * where they ended at assignment, and rides out broker trouble forever (a pause, then again).
 * {@link #close} wakes the reader and waits briefly for the thread.
 */
public final class TopicFollower implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(TopicFollower.class);
  private static final Duration METADATA_TIMEOUT = Duration.ofSeconds(5);
  private static final Duration JOIN = Duration.ofSeconds(10);

  /** What the thread does with what it reads; every call comes from the follower's thread. */
  public interface Handler {
    void record(ConsumerRecord<String, byte[]> record);

    /** After each poll; {@code caughtUp} stays true once every partition reached its end at assignment. */
    default void polled(boolean caughtUp) {}

    /** Kafka failed a call; the follower pauses and tries again. */
    default void failed(KafkaException e) {}
  }

  /**
   * @param name the thread's name
   * @param clientConfig bootstrap servers, client id and client properties ({@link TopicReader})
   * @param poll how long one poll waits for records
   * @param retry the pause while the topics are missing or Kafka fails
   */
  public record Settings(String name, Map<String, Object> clientConfig, List<String> topics,
      Duration poll, Duration retry) {
    public Settings {
      clientConfig = Map.copyOf(clientConfig);
      topics = List.copyOf(topics);
    }
  }

  private final Settings settings;
  private final Handler handler;
  private final CountDownLatch stop = new CountDownLatch(1);
  private final Thread thread;
  private volatile TopicReader reader;
  private boolean caughtUp; // owned by the thread

  public TopicFollower(Settings settings, Handler handler) {
    this.settings = settings;
    this.handler = handler;
    this.thread = new Thread(this::run, settings.name());
    thread.setDaemon(true);
  }

  /** Starts the thread (returns at once). */
  public void start() {
    thread.start();
  }

  private void run() {
    try (TopicReader r = new TopicReader(settings.clientConfig(), settings.topics())) {
      reader = r;
      while (stop.getCount() > 0) {
        step(r);
      }
    } catch (RuntimeException e) {
      if (stop.getCount() > 0) {
        LOG.error("{} stopped reading {}", settings.name(), settings.topics(), e);
      }
    }
  }

  private void step(TopicReader r) {
    try {
      if (!r.assigned() && !r.assign(METADATA_TIMEOUT)) {
        LOG.debug("{}: topics {} do not exist yet", settings.name(), settings.topics());
        pause();
        return;
      }
      for (ConsumerRecord<String, byte[]> record : r.poll(settings.poll())) {
        handler.record(record);
      }
      caughtUp = caughtUp || r.caughtUp(METADATA_TIMEOUT);
      handler.polled(caughtUp);
    } catch (WakeupException e) {
      // close() woke us up: the loop condition ends it
    } catch (KafkaException e) {
      LOG.warn("{}: reading {} failed, retrying: {}", settings.name(), settings.topics(), e.getMessage());
      handler.failed(e);
      pause();
    }
  }

  private void pause() {
    try {
      stop.await(settings.retry().toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      stop.countDown();
    }
  }

  /** Stops reading; waits up to 10 s for the thread. */
  @Override
  public void close() {
    stop.countDown();
    TopicReader r = reader;
    if (r != null) {
      r.wakeup();
    }
    try {
      thread.join(JOIN.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
