package dev.kubeheadroom.cli;

import dev.kubeheadroom.actuator.ActuatorSettings;
import dev.kubeheadroom.pipeline.ActuatorSpec;
import dev.kubeheadroom.schemas.KafkaClientSettings;
import dev.kubeheadroom.schemas.Topics;
import io.fabric8.kubernetes.client.Config;
import java.time.Duration;
import picocli.CommandLine.Option;

/** The actuator stage's own options (for {@code actuator} and {@code run}). */
public final class ActuatorOptions {
  @Option(names = "--actuator-group-id", paramLabel = "ID", defaultValue = "${env:HEADROOM_ACTUATOR_GROUP_ID}",
      description = "Consumer group on the decisions topic (default: <topic-prefix>actuator, e.g. "
          + "headroom.actuator). Env: HEADROOM_ACTUATOR_GROUP_ID.")
  String groupId;

  @Option(names = "--instance", paramLabel = "NAME", defaultValue = "${env:HEADROOM_POD_NAME:-headroom}",
      description = "This replica's name in events (default: $HEADROOM_POD_NAME).")
  String instance;

  /** Its default is the actuator's own ({@link ActuatorSettings#DEFAULT_MAX_DECISION_AGE}): none here. */
  @Option(names = "--max-decision-age", paramLabel = "DURATION", defaultValue = "${env:HEADROOM_MAX_DECISION_AGE}",
      description = "A decision computed longer ago than this is rejected, never applied (Go-style duration; "
          + "default: 10m). Env: HEADROOM_MAX_DECISION_AGE.")
  String maxDecisionAge;

  /** Its default is the actuator's own ({@link ActuatorSettings#DEFAULT_SESSION_TIMEOUT}): none here. */
  @Option(names = "--actuator-session-timeout", paramLabel = "DURATION",
      description = "The actuator group's session.timeout.ms: how long a killed replica's decisions wait "
          + "before another replica takes them over. Within the broker's group.min/max.session.timeout.ms "
          + "(6s-30m by default). Default: 10s.")
  String sessionTimeout;

  /** The actuator stage from these options, reaching Kubernetes with {@code kubeConfig}. */
  ActuatorSpec spec(KafkaConnection connection, Topics topics, Config kubeConfig) {
    return new ActuatorSpec(settings(connection.client(), topics), kubeConfig);
  }

  /** The settings from these options; without {@code --actuator-group-id}, the group follows the prefix. */
  ActuatorSettings settings(KafkaClientSettings kafka, Topics topics) {
    return ActuatorSettings.defaults(kafka, topics).with(b -> {
      b.groupId = groupId;
      b.instance = instance;
      b.maxDecisionAge = maxDecisionAge();
      b.sessionTimeout = sessionTimeout();
    });
  }

  /** {@code --actuator-session-timeout}, or null for the actuator's default. */
  private Duration sessionTimeout() {
    Duration timeout = DurationFlag.orElse("--actuator-session-timeout", sessionTimeout, null);
    if (timeout != null && timeout.toMillis() < 3) {
      throw new UserError("--actuator-session-timeout: must be at least 3ms, got " + sessionTimeout);
    }
    return timeout;
  }

  /** {@code --max-decision-age}, or null for the actuator's default. */
  private Duration maxDecisionAge() {
    Duration age = DurationFlag.orElse("--max-decision-age", maxDecisionAge, null);
    if (age != null && (age.isZero() || age.isNegative())) {
      throw new UserError("--max-decision-age: must be positive, got " + maxDecisionAge);
    }
    return age;
  }
}
