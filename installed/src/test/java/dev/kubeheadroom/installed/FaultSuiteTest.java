package dev.kubeheadroom.installed;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * The fault suite at full length (on demand: {@code -Pfaults}, see docs/reliability.md): Kafka
 * down {@code faults.kafkaOutage} (6 minutes), the API server down {@code faults.apiOutage}
 * (30 s), kill -9 of each stage and of the broker mid-stream, hostile pods, persistent refusals
 * and dryRun flipped over a backlog, under split stages and under {@code headroom run}; prints one
 * table and writes it to {@code target/faults/table.md}.
 */
@Tag("faults")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Execution(ExecutionMode.CONCURRENT) // the modes side by side: each has its own broker and cluster
class FaultSuiteTest {
  private static final Duration KAFKA_OUTAGE = Duration.parse(System.getProperty("faults.kafkaOutage", "PT6M"));
  private static final Duration API_OUTAGE = Duration.parse(System.getProperty("faults.apiOutage", "PT30S"));
  private static final Duration REFUSAL = Duration.parse(System.getProperty("faults.refusal", "PT90S"));
  /**
   * Which rows to play: {@code faults.rows}, comma-separated pieces of a row's fault name, any
   * case (e.g. {@code API server} or {@code kill -9 topology,kill -9 actuator}); every row when
   * unset or blank. The rows left out are logged as not selected; those played start from the
   * freshly installed cluster instead of the state the rows before them left.
   */
  private static final Predicate<String> ROWS = rows(System.getProperty("faults.rows", ""));
  /**
   * How long a scenario may take to converge once healed: a split stage that exited during a long
   * Kafka outage waits out the kubelet's CrashLoopBackOff (at most {@link ReplicaKeeper#MAX_BACKOFF})
   * before it starts again, then its start-up; anything later is "never".
   */
  private static final Duration CONVERGE = ReplicaKeeper.MAX_BACKOFF.plus(Duration.ofMinutes(2));

  private final List<FaultRow> rows = java.util.Collections.synchronizedList(new ArrayList<>());

  @Test
  void splitStages() {
    run("split", Map.of(), (suite, installation) -> {
      suite.kafkaOutage(KAFKA_OUTAGE);
      suite.apiOutage(API_OUTAGE);
      suite.kill("ingest (the Lease holder)", List.of(leaseHolder(installation)));
      suite.kill("topology", pods(installation, "topology"));
      suite.kill("actuator", pods(installation, "actuator"));
      suite.kill("webhook", pods(installation, "webhook"));
      suite.killBroker();
      suite.hostilePods();
      suite.persistentRefusal(REFUSAL);
      suite.dryRunFlippedWithABacklog(pods(installation, "actuator").get(0));
    });
  }

  @Test
  void allInOne() {
    run("all-in-one", Map.of("allInOne.enabled", true), (suite, installation) -> {
      suite.kafkaOutage(KAFKA_OUTAGE);
      suite.apiOutage(API_OUTAGE);
      suite.kill("headroom run", installation.processes().stream().map(StageProcess::podName).toList());
      suite.killBroker();
      suite.hostilePods();
    });
  }

  @AfterAll
  void printTheTable() {
    System.out.println("FAULT TABLE\n" + writeTheTable());
  }

  /**
   * Rewrites {@code target/faults/table.md} with every row so far: after each row as well as at
   * the end, so a run stopped early (a timeout, a killed fork) still leaves its table.
   */
  private synchronized String writeTheTable() {
    String report = FaultRow.report(List.copyOf(rows));
    Path out = Path.of("target/faults/table.md");
    try {
      Files.createDirectories(out.getParent());
      Files.writeString(out, report);
    } catch (IOException e) {
      System.out.println("cannot write " + out + ": " + e);
    }
    return report;
  }

  private void add(FaultRow row) {
    rows.add(row);
    writeTheTable();
  }

  private interface Scenarios {
    void play(FaultSuite suite, Installation installation);
  }

  private void run(String mode, Map<String, Object> modeValues, Scenarios scenarios) {
    try {
      install(mode, modeValues, scenarios);
    } catch (RuntimeException | AssertionError e) {
      if (List.copyOf(rows).stream().noneMatch(r -> r.mode().equals(mode))) { // it never got to a scenario
        add(new FaultRow("(install and start)", mode, 0, 0, 0, java.util.Optional.empty(), 0, 0,
            List.of("failed before the first scenario: " + e), List.of()));
      }
      throw e;
    }
  }

  private void install(String mode, Map<String, Object> modeValues, Scenarios scenarios) {
    Path dir = Path.of("target/runs/faults-" + mode).toAbsolutePath();
    InstalledTier.deleteRecursively(dir);
    try (BrokerProcess broker = BrokerProcess.start(dir.resolve("kafka"));
        Cluster cluster = Cluster.start()) {
      Map<String, Object> values = new HashMap<>(Installation.testValues(broker.bootstrapServers()));
      values.putAll(modeValues);
      try (Installation installation = Installation.install(cluster, dir, Installation.RELEASE,
          Installation.NAMESPACE, values)) {
        InstalledTier.enforce(cluster);
        try (FaultSuite suite = new FaultSuite(mode, cluster, installation, broker, CONVERGE, this::add).only(ROWS)) {
          scenarios.play(suite, installation);
          // one failure names every scenario that failed, each with what did not converge (the
          // pods off their target and by how much, lost decisions, duplicates): no rerun hides it
          List<String> failed = suite.rows().stream().filter(row -> !row.problems().isEmpty())
              .map(row -> row.mode() + ", " + row.fault() + ":\n    " + String.join("\n    ", row.problems()))
              .toList();
          assertThat(failed).as("scenarios that failed").isEmpty();
        } catch (AssertionError | RuntimeException e) {
          System.out.println("stage outputs:" + installation.outputs());
          throw e;
        }
      }
    }
  }

  static Predicate<String> rows(String selection) {
    List<String> pieces = java.util.Arrays.stream(selection.split(",")).map(String::strip)
        .filter(piece -> !piece.isEmpty()).map(piece -> piece.toLowerCase(java.util.Locale.ROOT)).toList();
    return fault -> pieces.isEmpty() || pieces.stream().anyMatch(fault.toLowerCase(java.util.Locale.ROOT)::contains);
  }

  private static List<String> pods(Installation installation, String stage) {
    return installation.processes().stream().map(StageProcess::podName).filter(n -> n.contains("-" + stage + "-"))
        .toList();
  }

  private static String leaseHolder(Installation installation) {
    return installation.cluster.admin().leases().inNamespace(Installation.NAMESPACE)
        .withName(installation.fullname() + "-ingest").get().getSpec().getHolderIdentity();
  }
}
