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
   * criteria left, while tenants keep changing pods: the broker killed -9 and down 8 s (the stages
   * ride it out and ingest buffers; its unclean restart is where finding 7's stalled commit came
   * from) and kill -9 of every replica at once (each stage comes back to work that piled up for
   * it: see {@link FaultSuite#killEveryStage}); the API outage, hostile pods and the refused pod
   * run on the all-in-one cluster ({@link AllInOneModeTest}), side by side with these. Each row must show nothing lost, nothing duplicated,
   * no limit below its request, the limits converged and still there 3 s later.
   *
   * <p>It replaces demo's StageRestartTest (each stage and the broker stopped and started
   * mid-scenario, final limits as undisturbed): here the product runs as installed, stops are
   * kill -9 and the undisturbed limits are the policy's over the final cluster ({@link PolicyOracle}).
   * The HeadroomConfig's backoffPeriod is 6 s here (the sample's 60 s would make the API
   * outage's refused patches wait a minute): the refusal row checks the backoff at that base.
   * The rows' bound is 4 min: room for the topology's stall watchdog (2 min) and a restart on a
   * loaded machine; a healthy row converges in seconds.
   */
  @Test
  @Order(100)
  void underEveryFaultNothingIsLostNothingDuplicatedAndTheLimitsConverge() {
    try (FaultSuite suite = new FaultSuite(mode(), cluster, installation, broker, Duration.ofMinutes(4))) {
      suite.backoffPeriod(Duration.ofSeconds(6));
      suite.killBroker(Duration.ofSeconds(8), "kill -9 broker, down 8 s");
      suite.killEveryStage(installation.processes().stream().map(StageProcess::podName).toList(),
          pod -> pod.contains("-actuator-"));
      // (the API outage, hostile pods and refusal rows run on the all-in-one cluster, which is
      // otherwise idle while these run: the two modes' classes run side by side)
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
