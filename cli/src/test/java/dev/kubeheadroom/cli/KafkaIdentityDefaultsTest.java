package dev.kubeheadroom.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.actuator.ActuatorSettings;
import dev.kubeheadroom.schemas.KafkaClientSettings;
import dev.kubeheadroom.schemas.Topics;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * Without {@code --application-id} / {@code --actuator-group-id}, the Streams application id and
 * the actuator's consumer group follow {@code --topic-prefix} (as the Helm chart derives them), so
 * a plain {@code headroom run --topic-prefix=x.} never joins another pipeline's groups.
 */
class KafkaIdentityDefaultsTest {

  private static RunCommand parse(String... args) {
    RunCommand run = new RunCommand();
    new CommandLine(run).parseArgs(args);
    return run;
  }

  private static String applicationId(RunCommand run) {
    return TopologyOptions.applicationId(run.topology.applicationId, run.topicOptions.topics());
  }

  private static String groupId(RunCommand run) {
    return run.actuator.settings(KafkaClientSettings.of("kafka:9092"), run.topicOptions.topics()).groupId();
  }

  @Test
  void bothFollowTheTopicPrefix() {
    RunCommand x = parse("--topic-prefix=x.");
    RunCommand y = parse("--topic-prefix=y.");

    assertThat(applicationId(x)).isEqualTo("x.topology");
    assertThat(groupId(x)).isEqualTo("x.actuator");
    assertThat(applicationId(y)).isNotEqualTo(applicationId(x));
    assertThat(groupId(y)).isNotEqualTo(groupId(x));
  }

  @Test
  void theDefaultPrefixGivesTheChartsDefaults() {
    RunCommand run = parse();

    assertThat(applicationId(run)).isEqualTo("headroom.topology");
    assertThat(groupId(run)).isEqualTo("headroom.actuator");
  }

  @Test
  void explicitFlagsWin() {
    RunCommand run = parse("--topic-prefix=x.", "--application-id=legacy-topology",
        "--actuator-group-id=legacy-actuator");

    assertThat(applicationId(run)).isEqualTo("legacy-topology");
    assertThat(groupId(run)).isEqualTo("legacy-actuator");
  }

  @Test
  void theActuatorLibraryDerivesTheSameGroup() {
    assertThat(ActuatorSettings.defaults(KafkaClientSettings.of("kafka:9092"), new Topics("z.")).groupId())
        .isEqualTo("z.actuator");
  }
}
