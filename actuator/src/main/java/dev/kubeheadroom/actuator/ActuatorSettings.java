package dev.kubeheadroom.actuator;

import dev.kubeheadroom.schemas.ClusterConfig;
import dev.kubeheadroom.schemas.KafkaClientSettings;
import dev.kubeheadroom.schemas.Topics;
import java.time.Duration;
import java.util.HashMap;
import java.util.Objects;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import org.apache.kafka.clients.consumer.ConsumerConfig;

/**
 * Everything the actuator is started with, parsed once by the launcher.
 *
 * <p>Made from {@link #defaults} (every setting but Kafka and the topics has a default) and
 * changed with {@link #with}.
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

  /** {@code <topic prefix>actuator}: {@link Topics#actuatorGroupId}. */
  public static String defaultGroupId(Topics topics) {
    return topics.actuatorGroupId();
  }

  /** Defaults for everything but Kafka and the topic names. */
  public static ActuatorSettings defaults(KafkaClientSettings kafka, Topics topics) {
    return new ActuatorSettings(kafka, topics, null, null, null, null, null, null, null);
  }

  /**
   * These settings with some changed: {@code settings.with(b -> b.instance = "actuator-a")}, the
   * settings classes' one copy style (a record's derived creation, {@code settings with { ... }}).
   * A field set to null takes its default again.
   */
  public ActuatorSettings with(Consumer<Builder> change) {
    Builder b = new Builder();
    change.accept(b);
    return new ActuatorSettings(b.kafka, b.topics, b.groupId, b.retry, b.instance, b.configTimeout,
        b.configView, b.maxDecisionAge, b.sessionTimeout);
  }

  /** Kafka {@code bootstrap.servers}. */
  public String bootstrapServers() {
    return kafka.bootstrapServers();
  }

  /** The Kafka client properties beyond {@code bootstrap.servers}. */
  public Map<String, String> clientProperties() {
    return kafka.properties();
  }

  /** The components of the settings {@link #with} starts from (these settings'), to assign. */
  public final class Builder {
    public KafkaClientSettings kafka = ActuatorSettings.this.kafka;
    public Topics topics = ActuatorSettings.this.topics;
    public String groupId = ActuatorSettings.this.groupId;
    public RetryPolicy retry = ActuatorSettings.this.retry;
    public String instance = ActuatorSettings.this.instance;
    public Duration configTimeout = ActuatorSettings.this.configTimeout;
    public UnaryOperator<ClusterConfig> configView = ActuatorSettings.this.configView;
    public Duration maxDecisionAge = ActuatorSettings.this.maxDecisionAge;
    public Duration sessionTimeout = ActuatorSettings.this.sessionTimeout;
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
