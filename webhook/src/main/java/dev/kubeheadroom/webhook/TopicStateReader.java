package dev.kubeheadroom.webhook;

import dev.kubeheadroom.schemas.ClusterConfig;
import dev.kubeheadroom.schemas.HeadroomKeys;
import dev.kubeheadroom.schemas.JsonCodec;
import dev.kubeheadroom.schemas.NamespaceInfo;
import dev.kubeheadroom.schemas.SchemaException;
import dev.kubeheadroom.schemas.TopicReader;
import dev.kubeheadroom.schemas.Topics;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Feeds {@link AdmissionState} from the compacted {@code namespaces} and {@code config} topics: a
 * {@link TopicReader} (no group, every partition from the beginning, kept polling), so
 * the webhook needs no RBAC to read namespaces and sees exactly what the topology sees.
 *
 * <p>At start (and again if the topics do not exist yet) it notes each partition's end offset;
 * the state turns warm once every position has reached it. Broker trouble is retried forever;
 * meanwhile the state keeps what it had (stale but last known). Tombstones remove; unreadable
 * records are skipped and counted, as the topology's global tables do.
 */
final class TopicStateReader implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(TopicStateReader.class);
  private static final Duration POLL = Duration.ofMillis(200);
  private static final Duration METADATA_TIMEOUT = Duration.ofSeconds(5);
  private static final Duration RETRY = Duration.ofSeconds(1);

  private final Map<String, Object> consumerConfig;
  private final Topics topics;
  private final AdmissionState state;
  private final WebhookMetrics metrics;
  private final CountDownLatch stop = new CountDownLatch(1);
  private final Thread thread;
  private volatile TopicReader reader;

  /** @param clientConfig bootstrap servers plus any client properties (SASL/SSL) */
  TopicStateReader(Map<String, Object> clientConfig, Topics topics, AdmissionState state,
      WebhookMetrics metrics) {
    this.consumerConfig = new HashMap<>(clientConfig);
    consumerConfig.put(ConsumerConfig.CLIENT_ID_CONFIG,
        consumerConfig.getOrDefault(ConsumerConfig.CLIENT_ID_CONFIG, "headroom-webhook-state"));
    this.topics = topics;
    this.state = state;
    this.metrics = metrics;
    this.thread = new Thread(this::run, "headroom-webhook-state");
    thread.setDaemon(true);
  }

  void start() {
    thread.start();
  }

  private void run() {
    try (TopicReader r = new TopicReader(consumerConfig, topics.compacted())) {
      reader = r;
      while (stop.getCount() > 0) {
        try {
          if (!r.assigned() && !r.assign(METADATA_TIMEOUT)) {
            LOG.debug("Topics {} do not exist yet; the webhook admits pods unchanged meanwhile",
                topics.compacted());
            pause();
            continue;
          }
          for (ConsumerRecord<String, byte[]> record : r.poll(POLL)) {
            apply(record);
          }
          if (!state.warm() && r.caughtUp(METADATA_TIMEOUT)) {
            state.markWarm();
            LOG.info("Webhook state is warm: {} namespace(s), config generation {}",
                state.namespaceCount(), state.config().generation());
          }
        } catch (WakeupException e) {
          // close() woke us up: the loop condition ends it
        } catch (KafkaException e) {
          LOG.warn("Reading {} and {} failed, retrying: {}", topics.namespaces(), topics.config(),
              e.getMessage());
          pause();
        }
      }
    } catch (RuntimeException e) {
      if (stop.getCount() > 0) {
        LOG.error("The webhook state reader stopped; the webhook keeps answering with what it has", e);
      }
    }
  }

  private void apply(ConsumerRecord<String, byte[]> r) {
    if (r.key() == null) {
      skip(r, "record without a key");
      return;
    }
    boolean namespaces = r.topic().equals(topics.namespaces());
    if (!namespaces && !HeadroomKeys.CONFIG_NAME.equals(r.key())) {
      return; // only the singleton "cluster" is the config
    }
    try {
      if (namespaces) {
        if (r.value() == null) {
          state.removeNamespace(r.key());
        } else {
          state.putNamespace(JsonCodec.decode(r.value(), NamespaceInfo.class));
        }
      } else if (r.value() == null) {
        state.removeConfig();
      } else {
        state.putConfig(JsonCodec.decode(r.value(), ClusterConfig.class));
      }
    } catch (SchemaException e) {
      skip(r, e.getMessage());
    }
  }

  private void skip(ConsumerRecord<String, byte[]> r, String reason) {
    metrics.unreadableRecord();
    LOG.warn("Skipping unreadable record {}-{}@{}: {}", r.topic(), r.partition(), r.offset(), reason);
  }

  private void pause() {
    try {
      stop.await(RETRY.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      stop.countDown();
    }
  }

  @Override
  public void close() {
    stop.countDown();
    TopicReader r = reader;
    if (r != null) {
      r.wakeup();
    }
    try {
      thread.join(Duration.ofSeconds(10).toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
