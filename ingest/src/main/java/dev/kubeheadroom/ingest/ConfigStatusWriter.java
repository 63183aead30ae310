package dev.kubeheadroom.ingest;

import dev.kubeheadroom.schemas.HeadroomKeys;
import dev.kubeheadroom.schemas.HeadroomSerdes;
import dev.kubeheadroom.schemas.JsonSerde;
import dev.kubeheadroom.schemas.NodeDecision;
import dev.kubeheadroom.schemas.TopicFollower;
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
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.KafkaException;
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
  private static final PatchContext MERGE_PATCH = new PatchContext.Builder()
      .withPatchType(PatchType.JSON_MERGE).withFieldManager(HeadroomKeys.FIELD_MANAGER).build();

  private final KubernetesClient client;
  private final Supplier<GenericKubernetesResource> cached;
  private final Supplier<Optional<ConfigTracker.Evaluation>> evaluation;
  private final IngestSettings settings;
  private final IngestMetrics metrics;
  private final Clock clock;
  private final JsonSerde<NodeDecision> serde = HeadroomSerdes.decisions();
  private final TopicFollower follower;

  // Owned by the follower's thread.
  private final ManagedPodCounts counts = new ManagedPodCounts();
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
    Map<String, Object> config = new HashMap<>(KafkaSink.clientConfig(settings));
    config.put(ConsumerConfig.CLIENT_ID_CONFIG, "headroom-config-status");
    this.follower = new TopicFollower(new TopicFollower.Settings("headroom-config-status", config,
        List.of(settings.topics().decisions()), POLL, settings.kafkaRetryBackoff()), new TopicFollower.Handler() {
          @Override
          public void record(ConsumerRecord<String, byte[]> record) {
            fold(record);
          }

          /** Nothing is written before the decisions are read to where they ended at start. */
          @Override
          public void polled(boolean caughtUp) {
            if (caughtUp) {
              writeIfDue();
            }
          }

          @Override
          public void failed(KafkaException e) {
            metrics.statusFailure("kafka");
          }
        });
  }

  /** Starts reading decisions and writing the status (returns at once). */
  public void start() {
    follower.start();
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

  /** Stops reading and writing; waits briefly for the thread. */
  @Override
  public void close() {
    follower.close();
  }
}
