package dev.kubeheadroom.actuator;

import dev.kubeheadroom.schemas.ClusterConfig;
import dev.kubeheadroom.schemas.Topics;
import java.time.Duration;
import java.util.Map;
import java.util.function.UnaryOperator;

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
 */
public record ActuatorSettings(
    String bootstrapServers,
    Map<String, String> clientProperties,
    Topics topics,
    String groupId,
    RetryPolicy retry,
    String instance,
    Duration configTimeout,
    UnaryOperator<ClusterConfig> configView) {

  public static final String DEFAULT_INSTANCE = "headroom-actuator";
  public static final Duration DEFAULT_CONFIG_TIMEOUT = Duration.ofSeconds(30);

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
    return new ActuatorSettings(bootstrapServers, Map.of(), topics, null, null, null, null, null);
  }

  public ActuatorSettings withGroupId(String value) {
    return new ActuatorSettings(bootstrapServers, clientProperties, topics, value, retry, instance,
        configTimeout, configView);
  }

  public ActuatorSettings withRetry(RetryPolicy value) {
    return new ActuatorSettings(bootstrapServers, clientProperties, topics, groupId, value, instance,
        configTimeout, configView);
  }

  public ActuatorSettings withConfigView(UnaryOperator<ClusterConfig> value) {
    return new ActuatorSettings(bootstrapServers, clientProperties, topics, groupId, retry, instance,
        configTimeout, value);
  }

  public ActuatorSettings withInstance(String value) {
    return new ActuatorSettings(bootstrapServers, clientProperties, topics, groupId, retry, value,
        configTimeout, configView);
  }

  /** The client properties every Kafka client of the actuator starts from. */
  Map<String, Object> common() {
    return Map.of("bootstrap.servers", bootstrapServers);
  }
}
