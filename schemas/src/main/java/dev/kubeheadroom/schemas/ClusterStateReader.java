package dev.kubeheadroom.schemas;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps a {@link ClusterState} up to date from the compacted {@code namespaces} and {@code config}
 * topics: the one reader of the cluster-wide state for the actuator and the webhook (the topology
 * reads the same topics as global tables, by the same {@link ClusterState#read} rule). A
 * {@link TopicFollower} reads both topics from the beginning (no group, so no RBAC or ACL beyond
 * reading them) and keeps polling; the state turns warm once they have been read to where they
 * ended at start. Broker trouble is retried forever while the state keeps what it had (stale but
 * last known). Unreadable records are skipped, logged and reported.
 */
public final class ClusterStateReader implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ClusterStateReader.class);
  private static final Duration POLL = Duration.ofMillis(200);
  private static final Duration RETRY = Duration.ofSeconds(1);

  private final ClusterState state;
  private final TopicFollower follower;
  private final CountDownLatch warm = new CountDownLatch(1);

  /**
   * @param clientId the Kafka client id, unless the client config names one
   * @param clientConfig bootstrap servers plus any client properties (SASL/SSL)
   * @param view applied to every config read ({@link ClusterState})
   * @param unreadable told the reason of each record skipped (a metric, say)
   */
  public ClusterStateReader(String clientId, Map<String, Object> clientConfig, Topics topics,
      UnaryOperator<ClusterConfig> view, Consumer<String> unreadable) {
    this.state = new ClusterState(topics, view);
    Map<String, Object> config = new HashMap<>(clientConfig);
    config.putIfAbsent(ConsumerConfig.CLIENT_ID_CONFIG, clientId);
    this.follower = new TopicFollower(
        new TopicFollower.Settings(clientId, config, List.of(topics.namespaces(), topics.config()), POLL, RETRY),
        new TopicFollower.Handler() {
          @Override
          public void record(ConsumerRecord<String, byte[]> r) {
            state.apply(r.topic(), r.key(), r.value()).ifPresent(reason -> {
              LOG.warn("Skipping unreadable record {}-{}@{}: {}", r.topic(), r.partition(), r.offset(), reason);
              unreadable.accept(reason);
            });
          }

          @Override
          public void polled(boolean caughtUp) {
            if (caughtUp && !state.warm()) {
              state.markWarm();
              warm.countDown();
              LOG.info("Cluster state is warm: {} namespace(s), config generation {}",
                  state.namespaceCount(), state.config().generation());
            }
          }
        });
  }

  public ClusterState state() {
    return state;
  }

  /** Starts reading (returns at once). */
  public ClusterStateReader start() {
    follower.start();
    return this;
  }

  /**
   * Waits until the state is warm; false when the timeout passed first, or the wait was
   * interrupted (the interrupt kept).
   */
  public boolean awaitWarm(Duration timeout) {
    try {
      return warm.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  @Override
  public void close() {
    follower.close();
  }
}
