package dev.kubeheadroom.actuator;

import dev.kubeheadroom.schemas.ClusterConfig;
import dev.kubeheadroom.schemas.Topics;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.apache.kafka.clients.consumer.ConsumerConfig;

/**
 * Everything the actuator is started with, parsed once by the launcher.
 *
 * @param bootstrapServers Kafka {@code bootstrap.servers}
 * @param clientProperties further Kafka client properties (SASL/SSL, tuning); they win over the
 *     actuator's own, except {@code enable.auto.commit} (always false) and the producer's
 *     idempotence and {@code acks=all}
 * @param topics topic names (decisions in, outcomes out, config read, dead letters out)
 * @param groupId the consumer group on {@code decisions} (default {@code <topic prefix>actuator}, see
 *     {@link #defaultGroupId})
 * @param retry transient-failure retries of one resize try (default 3 tries, 200 ms base)
 * @param instance {@code reportingInstance} of the events written (e.g. the pod name; default
 *     {@value #DEFAULT_INSTANCE})
 * @param configTimeout how long start-up waits to read the config topic to its end (default 30 s)
 * @param configView applied to every config read, e.g. {@code c -> c.speedUp(k)} for the demo
 * @param maxDecisionAge a decision computed longer ago than this (by its {@code computedAt}) is
 *     {@code rejected}, never applied (default 10 minutes); the
 *     topology re-decides a pod whose outcome it sees, so a stale target is never needed
 */
public record ActuatorSettings(
    String bootstrapServers,
    Map<String, String> clientProperties,
    Topics topics,
    String groupId,
    RetryPolicy retry,
    String instance,
    Duration configTimeout,
    UnaryOperator<ClusterConfig> configView,
    Duration maxDecisionAge) {

  public static final String DEFAULT_INSTANCE = "headroom-actuator";
  public static final Duration DEFAULT_CONFIG_TIMEOUT = Duration.ofSeconds(30);
  public static final Duration DEFAULT_MAX_DECISION_AGE = Duration.ofMinutes(10);

  public ActuatorSettings {
    if (bootstrapServers == null || bootstrapServers.isBlank()) {
      throw new IllegalArgumentException("bootstrapServers is required");
    }
    clientProperties = clientProperties == null ? Map.of() : Map.copyOf(clientProperties);
    topics = topics == null ? Topics.defaults() : topics;
    groupId = groupId == null || groupId.isBlank() ? defaultGroupId(topics) : groupId;
    retry = retry == null ? RetryPolicy.DEFAULT : retry;
    instance = instance == null || instance.isBlank() ? DEFAULT_INSTANCE : instance;
    configTimeout = configTimeout == null ? DEFAULT_CONFIG_TIMEOUT : configTimeout;
    configView = configView == null ? UnaryOperator.identity() : configView;
    maxDecisionAge = maxDecisionAge == null ? DEFAULT_MAX_DECISION_AGE : maxDecisionAge;
    if (maxDecisionAge.isNegative() || maxDecisionAge.isZero()) {
      throw new IllegalArgumentException("maxDecisionAge must be > 0, got " + maxDecisionAge);
    }
  }

  /** As the canonical constructor, with the default {@code maxDecisionAge}. */
  public ActuatorSettings(String bootstrapServers, Map<String, String> clientProperties,
      Topics topics, String groupId, RetryPolicy retry, String instance, Duration configTimeout,
      UnaryOperator<ClusterConfig> configView) {
    this(bootstrapServers, clientProperties, topics, groupId, retry, instance, configTimeout,
        configView, null);
  }

  /**
   * {@code <topic prefix>actuator}: two pipelines with different topic prefixes on one Kafka never
   * share a consumer group (the Helm chart derives the same name).
   */
  public static String defaultGroupId(Topics topics) {
    return topics.prefix() + "actuator";
  }

  /** Defaults for everything but Kafka's address and the topic names. */
  public static ActuatorSettings defaults(String bootstrapServers, Topics topics) {
    return new ActuatorSettings(bootstrapServers, Map.of(), topics, null, null, null, null, null, null);
  }

  public ActuatorSettings withGroupId(String value) {
    return new ActuatorSettings(bootstrapServers, clientProperties, topics, value, retry, instance,
        configTimeout, configView, maxDecisionAge);
  }

  public ActuatorSettings withRetry(RetryPolicy value) {
    return new ActuatorSettings(bootstrapServers, clientProperties, topics, groupId, value, instance,
        configTimeout, configView, maxDecisionAge);
  }

  public ActuatorSettings withConfigView(UnaryOperator<ClusterConfig> value) {
    return new ActuatorSettings(bootstrapServers, clientProperties, topics, groupId, retry, instance,
        configTimeout, value, maxDecisionAge);
  }

  public ActuatorSettings withInstance(String value) {
    return new ActuatorSettings(bootstrapServers, clientProperties, topics, groupId, retry, value,
        configTimeout, configView, maxDecisionAge);
  }

  public ActuatorSettings withMaxDecisionAge(Duration value) {
    return new ActuatorSettings(bootstrapServers, clientProperties, topics, groupId, retry, instance,
        configTimeout, configView, value);
  }

  /** The decisions consumer's properties: manual commits, read_committed, a new group at the end. */
  Map<String, Object> decisionsConsumer() {
    Map<String, Object> config = new HashMap<>(common());
    config.put(ConsumerConfig.CLIENT_ID_CONFIG, groupId() + "-decisions");
    // a new group starts at the end: the topology re-decides every pod whose target differs on
    // its restart or a config change, so a backlog holds nothing newer than what comes next
    config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest");
    config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    config.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 500);
    config.putAll(clientProperties());
    config.put(ConsumerConfig.GROUP_ID_CONFIG, groupId());
    config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    return config;
  }

  /** The client properties every Kafka client of the actuator starts from. */
  Map<String, Object> common() {
    return Map.of("bootstrap.servers", bootstrapServers);
  }
}
