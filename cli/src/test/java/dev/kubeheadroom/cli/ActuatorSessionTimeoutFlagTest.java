package dev.kubeheadroom.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kubeheadroom.actuator.ActuatorSettings;
import dev.kubeheadroom.schemas.KafkaClientSettings;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@code --actuator-session-timeout} (actuator, run): a Go-style duration read once into
 * {@link ActuatorSettings#sessionTimeout}, the decisions group's {@code session.timeout.ms};
 * absent, the actuator's own default holds.
 */
class ActuatorSessionTimeoutFlagTest {
  private static final KafkaClientSettings KAFKA = KafkaClientSettings.of("kafka:9092");

  @Test
  void theFlagSetsTheTimeoutOfRunAndOfTheActuator() {
    RunCommand run = new RunCommand();
    new CommandLine(run).parseArgs("--actuator-session-timeout=8s");
    assertThat(run.actuator.settings(KAFKA, run.topicOptions.topics()).sessionTimeout())
        .isEqualTo(Duration.ofSeconds(8));
    ActuatorCommand actuator = new ActuatorCommand();
    new CommandLine(actuator).parseArgs("--actuator-session-timeout=1m");
    assertThat(actuator.stage.settings(KAFKA, actuator.topicOptions.topics()).sessionTimeout())
        .isEqualTo(Duration.ofMinutes(1));
  }

  @Test
  void withoutItTheActuatorsDefaultHoldsNotKafkas() {
    ActuatorCommand actuator = new ActuatorCommand();
    new CommandLine(actuator).parseArgs();
    ActuatorSettings settings = actuator.stage.settings(KAFKA, actuator.topicOptions.topics());
    assertThat(settings.sessionTimeout()).isEqualTo(ActuatorSettings.DEFAULT_SESSION_TIMEOUT)
        .isLessThan(Duration.ofSeconds(45));
  }

  @Test
  void theHelpStatesTheActuatorsDefault() {
    String[] description = new CommandLine(new ActuatorCommand()).getCommandSpec()
        .findOption("--actuator-session-timeout").description();
    assertThat(String.join(" ", description))
        .contains("Default: " + ActuatorSettings.DEFAULT_SESSION_TIMEOUT.toSeconds() + "s.");
  }

  @Test
  void aBadDurationIsAUserError() {
    ActuatorCommand actuator = new ActuatorCommand();
    new CommandLine(actuator).parseArgs("--actuator-session-timeout=soon");
    assertThatThrownBy(() -> actuator.stage.settings(KAFKA, actuator.topicOptions.topics()))
        .isInstanceOf(UserError.class).hasMessageStartingWith("--actuator-session-timeout: ");
    new CommandLine(actuator).parseArgs("--actuator-session-timeout=0s");
    assertThatThrownBy(() -> actuator.stage.settings(KAFKA, actuator.topicOptions.topics()))
        .isInstanceOf(UserError.class);
  }
}
