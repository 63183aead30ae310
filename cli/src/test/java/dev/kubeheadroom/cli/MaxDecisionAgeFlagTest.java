package dev.kubeheadroom.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kubeheadroom.actuator.ActuatorSettings;
import dev.kubeheadroom.schemas.KafkaClientSettings;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@code --max-decision-age} (actuator, run): a Go-style duration read once into
 * {@link ActuatorSettings#maxDecisionAge}; absent, the actuator's own default holds.
 */
class MaxDecisionAgeFlagTest {

  @Test
  void theFlagSetsTheBoundOfRunAndOfTheActuator() {
    RunCommand run = new RunCommand();
    new CommandLine(run).parseArgs("--max-decision-age=90s");
    assertThat(run.actuator.settings(KafkaClientSettings.of("kafka:9092"), run.topicOptions.topics())
        .maxDecisionAge()).isEqualTo(Duration.ofSeconds(90));
    ActuatorCommand actuator = new ActuatorCommand();
    new CommandLine(actuator).parseArgs("--max-decision-age=2m");
    assertThat(actuator.stage.settings(KafkaClientSettings.of("kafka:9092"), actuator.topicOptions.topics())
        .maxDecisionAge()).isEqualTo(Duration.ofMinutes(2));
  }

  @Test
  void withoutItTheActuatorsDefaultHolds() {
    ActuatorCommand actuator = new ActuatorCommand();
    new CommandLine(actuator).parseArgs();
    assertThat(actuator.stage.settings(KafkaClientSettings.of("kafka:9092"), actuator.topicOptions.topics())
        .maxDecisionAge()).isEqualTo(ActuatorSettings.DEFAULT_MAX_DECISION_AGE);
  }

  @Test
  void theHelpStatesTheActuatorsDefault() {
    String[] description = new CommandLine(new ActuatorCommand()).getCommandSpec()
        .findOption("--max-decision-age").description();
    long minutes = ActuatorSettings.DEFAULT_MAX_DECISION_AGE.toMinutes();
    assertThat(String.join(" ", description)).contains("default: " + minutes + "m)");
  }

  @Test
  void aBadDurationIsAUserError() {
    ActuatorCommand actuator = new ActuatorCommand();
    new CommandLine(actuator).parseArgs("--max-decision-age=soon");
    assertThatThrownBy(() -> actuator.stage.settings(KafkaClientSettings.of("kafka:9092"),
        actuator.topicOptions.topics())).isInstanceOf(UserError.class).hasMessageStartingWith("--max-decision-age: ");
    new CommandLine(actuator).parseArgs("--max-decision-age=0s");
    assertThatThrownBy(() -> actuator.stage.settings(KafkaClientSettings.of("kafka:9092"),
        actuator.topicOptions.topics())).isInstanceOf(UserError.class);
  }
}
