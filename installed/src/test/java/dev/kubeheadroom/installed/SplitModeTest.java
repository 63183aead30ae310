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
   * The fault suite, small (docs/reliability.md has the long one), last, on the cluster the exit
   * criteria left, while tenants keep changing pods: Kafka down 8 s (ingest buffers, the stages
   * ride it out), the API server down 5 s, kill -9 of every replica at once (each stage comes back
   * to work that piled up for it: see {@link FaultSuite#killEveryStage}), kill -9 of the broker,
   * hostile pods, and a pod whose every resize is refused for 15 s. Each row must show nothing
   * lost, nothing duplicated, no limit below its request, and the limits converged.
   *
   * <p>It covers what demo's StageRestartTest checks (each stage and the broker stopped and started
   * mid-scenario, final limits as undisturbed): here the product runs as installed, stops are
   * kill -9 and the undisturbed limits are the policy's over the final cluster ({@link PolicyOracle}).
   * The HeadroomConfig's backoffPeriod is 10 s here (the sample's 60 s would make the API
   * outage's refused patches wait a minute): the refusal row checks the backoff at that base.
   *
   * <p>Tagged {@code faults} (run with {@code -Pfaults}), not in {@code mvn verify}, and
   * StageRestartTest stays: its run of 2026-12-01 23:22 (load 50-65) met finding 7 on the broker's
   * kill -9 (docs/reliability.md): the topology's watchdog replaced the stalled client after 2 min
   * (TopologyRunner.DEFAULT_STALL_BOUND), as it should, but the new client sat in REBALANCING too
   * and the row did not converge within its 5 minutes. The rows' bound is 5 min: room for the
   * watchdog's 2 min and a restart on a loaded machine; a healthy row converges in seconds.
   */
  @Test
  @Order(100)
  @org.junit.jupiter.api.Tag("faults")
  void underEveryFaultNothingIsLostNothingDuplicatedAndTheLimitsConverge() {
    try (FaultSuite suite = new FaultSuite(mode(), cluster, installation, broker, Duration.ofMinutes(5))) {
      suite.backoffPeriod(Duration.ofSeconds(10));
      suite.kafkaOutage(Duration.ofSeconds(8));
      suite.apiOutage(Duration.ofSeconds(5));
      suite.killEveryStage(installation.processes().stream().map(StageProcess::podName).toList(),
          pod -> pod.contains("-actuator-"));
      suite.killBroker();
      suite.hostilePods();
      suite.persistentRefusal(Duration.ofSeconds(15));
      List<FaultRow> rows = suite.rows();
      System.out.println("FAULT TABLE (" + mode() + ", small)\n" + FaultRow.report(rows));
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
