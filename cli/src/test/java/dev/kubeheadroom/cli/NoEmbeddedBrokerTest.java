package dev.kubeheadroom.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The operator's command line (the image's entrypoint) has no embedded broker: a command that
 * needs Kafka and is given none says so in one line and exits 2 (a usage error), before it
 * serves anything, rather than failing on a class the image does not carry.
 */
class NoEmbeddedBrokerTest {
  @ParameterizedTest(name = "headroom {0}")
  @ValueSource(strings = {"run", "ingest", "topology", "actuator", "webhook", "audit"})
  void aCommandGivenNoKafkaSaysSoInOneLine(String command, @TempDir Path dataDir) {
    List<String> args = new ArrayList<>(List.of(command, "--data-dir=" + dataDir));
    if (command.equals("audit")) {
      args.addAll(List.of("--at=2026-12-07T00:00:00Z", "--node=node-1"));
    } else {
      args.addAll(List.of("--health-port=0", "--metrics-port=0"));
    }
    if (!List.of("audit", "topology", "webhook").contains(command)) {
      args.add("--kube-api-url=https://127.0.0.1:9");
    }
    if (command.equals("webhook")) {
      args.add("--webhook-cert-dir=" + dataDir);
    }
    CliRun run = CliRun.run(args.toArray(String[]::new));

    assertThat(run.exitCode()).as(run.stderr()).isEqualTo(ExitCodes.USAGE);
    assertThat(run.stderr().strip()).isEqualTo("headroom " + command + ": no Kafka: give --kafka-bootstrap-servers "
        + "(or HEADROOM_KAFKA_BOOTSTRAP_SERVERS); the operator image has no embedded broker (./headroom runs one on a laptop)");
    assertThat(dataDir).isEmptyDirectory();
  }
}
