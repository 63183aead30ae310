package dev.kubeheadroom.ingest;

import dev.kubeheadroom.schemas.HeadroomKeys;
import dev.kubeheadroom.schemas.HeadroomSerdes;
import dev.kubeheadroom.schemas.JsonSerde;
import dev.kubeheadroom.schemas.NodeDecision;
import dev.kubeheadroom.schemas.TopicReader;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the {@code status} of HeadroomConfig {@code cluster} up to date while this instance leads
 * (docs/design/config.md: observedGeneration, the Ready condition, managedPods / managedNodes). The one writer
 * of that status is the ingest leader.
 *
 * <ul>
 *   <li>observedGeneration and Ready come from {@link ConfigTracker#evaluation()}: True/Accepted,
 *       or False/Refused with the one-line reason while the last good config stays in force.
 *   <li>managedPods / managedNodes come from the event log: one thread reads the {@code decisions}
 *       topic ({@link TopicReader}: no group, every partition from the earliest retained offset,
 *       {@code read_committed}) and keeps each node's latest {@code stats().managedPods()}.
 *       Nothing is written before that read has caught up with the end of the topic as it was
 *       when reading began, so a new leader never reports a half-read count.
 *   <li>A JSON merge patch of the {@code status} subresource (field manager {@value HeadroomKeys#FIELD_MANAGER})
 *       carrying only {@code status}; never the spec. At most one attempt per interval, and none
 *       while the status to write equals the one last written (or found on the object).
 *   <li>Failures (API or Kafka) are logged and counted
 *       ({@link IngestMetrics#STATUS_FAILURES}); they never reach the rest of ingest.
 * </ul>
 */
public final class ConfigStatusWriter implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ConfigStatusWriter.class);
  private static final Duration POLL = Duration.ofMillis(500);
  private static final Duration METADATA_TIMEOUT = Duration.ofSeconds(5);
  private static final PatchContext MERGE_PATCH = new PatchContext.Builder()
      .withPatchType(PatchType.JSON_MERGE).withFieldManager(HeadroomKeys.FIELD_MANAGER).build();

  private final KubernetesClient client;
  private final Supplier<GenericKubernetesResource> cached;
  private final Supplier<Optional<ConfigTracker.Evaluation>> evaluation;
  private final IngestSettings settings;
  private final IngestMetrics metrics;
  private final Clock clock;
  private final JsonSerde<NodeDecision> serde = HeadroomSerdes.decisions();
  private final CountDownLatch stopping = new CountDownLatch(1);
  private final Thread thread;

  // Owned by the writer thread.
  private final ManagedPodCounts counts = new ManagedPodCounts();
  private volatile TopicReader reader;
  private boolean caughtUp;
  private String knownUid; // the object lastWritten describes
  private ConfigStatus lastWritten; // what the object holds, as far as this writer knows
  private Instant lastAttempt;

  /**
   * @param cached the {@code cluster} object from the informer cache (null when absent)
   * @param evaluation the tracker's verdict on that object
   */
  public ConfigStatusWriter(KubernetesClient client, Supplier<GenericKubernetesResource> cached,
      Supplier<Optional<ConfigTracker.Evaluation>> evaluation, IngestSettings settings,
      IngestMetrics metrics, Clock clock) {
    this.client = client;
    this.cached = cached;
    this.evaluation = evaluation;
    this.settings = settings;
    this.metrics = metrics;
    this.clock = clock;
    this.thread = new Thread(this::run, "headroom-config-status");
    thread.setDaemon(true);
  }

  /** Starts reading decisions and writing the status (returns at once). */
  public void start() {
    thread.start();
  }

  private void run() {
    Map<String, Object> config = new HashMap<>(KafkaSink.clientConfig(settings));
    config.put(ConsumerConfig.CLIENT_ID_CONFIG, "headroom-config-status");
    try (TopicReader r = new TopicReader(config, List.of(settings.topics().decisions()))) {
      reader = r;
      while (stopping.getCount() > 0) {
        step(r);
      }
    } catch (RuntimeException e) {
      LOG.warn("HeadroomConfig({}) status writer stopped: {}", HeadroomKeys.CONFIG_NAME, e.toString());
    }
  }

  /** One round: read what the decisions topic has, then write the status if it is due. */
  private void step(TopicReader r) {
    try {
      if (!r.assigned()) {
        if (!r.assign(METADATA_TIMEOUT)) {
          pause(settings.kafkaRetryBackoff()); // the topic is not there (yet)
        }
        return;
      }
      for (ConsumerRecord<String, byte[]> record : r.poll(POLL)) {
        fold(record);
      }
      caughtUp = caughtUp || r.caughtUp(METADATA_TIMEOUT);
      if (caughtUp) {
        writeIfDue();
      }
    } catch (WakeupException e) {
      // close() asked us to stop
    } catch (KafkaException e) {
      metrics.statusFailure("kafka");
      LOG.warn("HeadroomConfig({}) status: reading {} failed, retrying: {}", HeadroomKeys.CONFIG_NAME,
          settings.topics().decisions(), e.getMessage());
      pause(settings.kafkaRetryBackoff());
    }
  }

  private void fold(ConsumerRecord<String, byte[]> record) {
    if (record.value() == null) {
      if (record.key() != null) {
        counts.apply(record.key(), null);
      }
      return;
    }
    try {
      NodeDecision decision = serde.deserialize(record.topic(), record.value());
      counts.apply(decision.node(), decision);
    } catch (RuntimeException e) {
      // Not a decision this version can read: it counts nowhere (the topology dead-letters its own).
      LOG.debug("{}-{}@{} skipped: {}", record.topic(), record.partition(), record.offset(), e.getMessage());
    }
  }

  private void writeIfDue() {
    GenericKubernetesResource object = cached.get();
    Optional<ConfigTracker.Evaluation> verdict = evaluation.get();
    if (object == null || verdict.isEmpty()) {
      return; // no object: no status to keep
    }
    String uid = object.getMetadata().getUid() == null ? "" : object.getMetadata().getUid();
    if (!uid.equals(verdict.get().uid())) {
      return; // the tracker has not judged this object yet
    }
    if (!uid.equals(knownUid)) {
      knownUid = uid; // first sight of this object: its stored status is the baseline
      lastWritten = ConfigStatus.parse(object.getAdditionalProperties().get("status"));
    }
    Instant now = clock.instant();
    ConfigStatus next = ConfigStatus.next(verdict.get().generation(), verdict.get().refusal(),
        counts.managedPods(), counts.managedNodes(), lastWritten, now);
    if (next.equals(lastWritten)) {
      return;
    }
    if (lastAttempt != null && now.isBefore(lastAttempt.plus(settings.statusInterval()))) {
      return;
    }
    lastAttempt = now;
    try {
      client.genericKubernetesResources(Ingest.HEADROOM_CONFIG).withName(HeadroomKeys.CONFIG_NAME)
          .subresource("status").patch(MERGE_PATCH, Serialization.asJson(Map.of("status", next.toMap())));
      metrics.statusWritten();
      if (lastWritten == null || lastWritten.ready().status() != next.ready().status()
          || lastWritten.observedGeneration() != next.observedGeneration()) {
        LOG.info("HeadroomConfig({}) status: generation {} Ready={} ({})", HeadroomKeys.CONFIG_NAME,
            next.observedGeneration(), next.ready().status(), next.ready().reason());
      }
      lastWritten = next;
    } catch (RuntimeException e) { // KubernetesClientException, or the client's own failures
      metrics.statusFailure("patch");
      LOG.warn("HeadroomConfig({}) status not written, retrying in {} s: {}", HeadroomKeys.CONFIG_NAME,
          settings.statusInterval().toSeconds(), e.getMessage());
    }
  }

  private void pause(Duration duration) {
    try {
      stopping.await(duration.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      stopping.countDown();
    }
  }

  /** Stops reading and writing; waits briefly for the thread. */
  @Override
  public void close() {
    stopping.countDown();
    TopicReader r = reader;
    if (r != null) {
      r.wakeup();
    }
    try {
      thread.join(5_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
