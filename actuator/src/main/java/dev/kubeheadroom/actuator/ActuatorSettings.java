package dev.kubeheadroom.actuator;

import dev.kubeheadroom.schemas.ClusterConfig;
import dev.kubeheadroom.schemas.KafkaClientSettings;
import dev.kubeheadroom.schemas.Topics;
import java.time.Duration;
import java.util.HashMap;
import java.util.Objects;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.apache.kafka.clients.consumer.ConsumerConfig;

/**
 * Everything the actuator is started with, parsed once by the launcher.
 *
 * <p>Built with {@link #builder}: every setting but Kafka and the topics has a default.
 *
 * @param kafka Kafka's address and client properties (SASL/SSL, tuning); the properties win over
 *     the actuator's own, except {@code enable.auto.commit} (always false) and the producer's
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
 *     {@code rejected}, never applied (default {@link #DEFAULT_MAX_DECISION_AGE}; flag
 *     {@code --max-decision-age}); the topology re-decides a pod whose outcome it sees, so a stale
 *     target is never needed
 * @param sessionTimeout the decisions consumer's {@code session.timeout.ms} (heartbeat a third of
 *     it): how long a killed replica's partitions wait before the group moves them to another
 *     (default {@link #DEFAULT_SESSION_TIMEOUT}; flag {@code --actuator-session-timeout}; a
 *     {@code session.timeout.ms} in the client properties wins)
 */
public record ActuatorSettings(
    KafkaClientSettings kafka,
    Topics topics,
    String groupId,
    RetryPolicy retry,
    String instance,
    Duration configTimeout,
    UnaryOperator<ClusterConfig> configView,
    Duration maxDecisionAge,
    Duration sessionTimeout) {

  public static final String DEFAULT_INSTANCE = "headroom-actuator";
  public static final Duration DEFAULT_CONFIG_TIMEOUT = Duration.ofSeconds(30);
  public static final Duration DEFAULT_MAX_DECISION_AGE = Duration.ofMinutes(10);
  /**
   * 10 s, not the consumer's 45 s: a killed replica's decisions wait this long before another
   * replica takes them over. The topology's default too (its {@code FailoverTimeouts}), above the
   * brokers' 6 s floor ({@code group.min.session.timeout.ms}).
   */
  public static final Duration DEFAULT_SESSION_TIMEOUT = Duration.ofSeconds(10);

  public ActuatorSettings {
    Objects.requireNonNull(kafka, "kafka");
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
    sessionTimeout = sessionTimeout == null ? DEFAULT_SESSION_TIMEOUT : sessionTimeout;
    if (sessionTimeout.toMillis() < 3) {
      throw new IllegalArgumentException("sessionTimeout must be at least 3 ms (a heartbeat is a third of it), got "
          + sessionTimeout);
    }
  }

  /**
   * {@code <topic prefix>actuator}: two pipelines with different topic prefixes on one Kafka never
   * share a consumer group (the Helm chart derives the same name).
   */
  public static String defaultGroupId(Topics topics) {
    return topics.prefix() + "actuator";
  }

  /** Settings for Kafka and these topics; every other setting starts at its default. */
  public static Builder builder(KafkaClientSettings kafka, Topics topics) {
    return new Builder(kafka, topics);
  }

  /** Defaults for everything but Kafka and the topic names. */
  public static ActuatorSettings defaults(KafkaClientSettings kafka, Topics topics) {
    return builder(kafka, topics).build();
  }

  /** A builder holding these settings, to change some of them. */
  public Builder toBuilder() {
    return new Builder(kafka, topics).groupId(groupId).retry(retry).instance(instance)
        .configTimeout(configTimeout).configView(configView).maxDecisionAge(maxDecisionAge)
        .sessionTimeout(sessionTimeout);
  }

  public ActuatorSettings withGroupId(String value) {
    return toBuilder().groupId(value).build();
  }

  public ActuatorSettings withRetry(RetryPolicy value) {
    return toBuilder().retry(value).build();
  }

  public ActuatorSettings withConfigView(UnaryOperator<ClusterConfig> value) {
    return toBuilder().configView(value).build();
  }

  public ActuatorSettings withInstance(String value) {
    return toBuilder().instance(value).build();
  }

  public ActuatorSettings withMaxDecisionAge(Duration value) {
    return toBuilder().maxDecisionAge(value).build();
  }

  /** Kafka {@code bootstrap.servers}. */
  public String bootstrapServers() {
    return kafka.bootstrapServers();
  }

  /** The Kafka client properties beyond {@code bootstrap.servers}. */
  public Map<String, String> clientProperties() {
    return kafka.properties();
  }

  /** Named settings in place of positional nulls; a null or blank value keeps the default. */
  public static final class Builder {
    private final KafkaClientSettings kafka;
    private final Topics topics;
    private String groupId;
    private RetryPolicy retry;
    private String instance;
    private Duration configTimeout;
    private UnaryOperator<ClusterConfig> configView;
    private Duration maxDecisionAge;
    private Duration sessionTimeout;

    private Builder(KafkaClientSettings kafka, Topics topics) {
      this.kafka = kafka;
      this.topics = topics;
    }

    public Builder groupId(String value) {
      groupId = value;
      return this;
    }

    public Builder retry(RetryPolicy value) {
      retry = value;
      return this;
    }

    public Builder instance(String value) {
      instance = value;
      return this;
    }

    public Builder configTimeout(Duration value) {
      configTimeout = value;
      return this;
    }

    public Builder configView(UnaryOperator<ClusterConfig> value) {
      configView = value;
      return this;
    }

    public Builder maxDecisionAge(Duration value) {
      maxDecisionAge = value;
      return this;
    }

    public Builder sessionTimeout(Duration value) {
      sessionTimeout = value;
      return this;
    }

    public ActuatorSettings build() {
      return new ActuatorSettings(kafka, topics, groupId, retry, instance, configTimeout, configView,
          maxDecisionAge, sessionTimeout);
    }
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
    if (!clientProperties().containsKey(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG)) {
      // an operator's session.timeout.ms wins, with Kafka's heartbeat unless they set one too
      config.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, (int) sessionTimeout.toMillis());
      config.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, (int) Math.max(1, sessionTimeout.toMillis() / 3));
    }
    config.putAll(clientProperties());
    config.put(ConsumerConfig.GROUP_ID_CONFIG, groupId());
    config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    return config;
  }

  /** The cluster-state reader's client: no group, the client properties over the common ones. */
  Map<String, Object> stateReaderConfig() {
    Map<String, Object> config = new HashMap<>(common());
    config.putAll(clientProperties());
    return config;
  }

  /** The client properties every Kafka client of the actuator starts from. */
  Map<String, Object> common() {
    return Map.of("bootstrap.servers", kafka.bootstrapServers());
  }
}
