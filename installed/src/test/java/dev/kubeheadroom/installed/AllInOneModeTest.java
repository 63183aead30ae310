package dev.kubeheadroom.installed;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/** The chart with {@code allInOne.enabled=true}: every stage in one {@code headroom run} process. */
class AllInOneModeTest extends InstalledTier {
  @Override
  Map<String, Object> modeValues() {
    return Map.of("allInOne.enabled", true);
  }

  @Override
  String mode() {
    return "all-in-one";
  }

  /** See {@link TwoReleases}: the second cluster is a second API double. */
  @Test
  @Order(7)
  void twoReleasesWithTheirOwnTopicPrefixesOnOneBrokerShareNothing() throws Exception {
    try (Cluster other = Cluster.start()) {
      new TwoReleases(broker, runDir(), modeValues(), ns()).check(other);
    }
  }

  /**
   * The fault suite's rows that need no separate stage processes, small, last, on this mode's
   * cluster (the broker and kill -9 rows run on the split cluster, {@link SplitModeTest}, at the
   * same time): the API server down 5 s, hostile pods (absurd CPU quantities), and a pod whose
   * every resize is refused for 12 s. Each row must show nothing lost, nothing duplicated, no limit
   * below its request, the limits converged and still there 3 s later; the refusal row at most
   * the tries the backoff allows. backoffPeriod 6 s, as in split mode.
   */
  @Test
  @Order(100)
  void underTheApiOutageHostilePodsAndARefusalNothingIsLostAndTheLimitsConverge() {
    try (FaultSuite suite = new FaultSuite(mode(), cluster, installation, broker, Duration.ofMinutes(4))) {
      suite.backoffPeriod(Duration.ofSeconds(6));
      suite.apiOutage(Duration.ofSeconds(5));
      suite.hostilePods();
      suite.persistentRefusal(Duration.ofSeconds(12));
      List<FaultRow> rows = suite.rows();
      System.out.println("FAULT TABLE (" + mode() + ", small)\n" + FaultRow.report(rows));
      assertThat(rows).allSatisfy(row -> {
        assertThat(row.problems()).as(row.fault()).isEmpty();
        assertThat(row.converge()).as(row.fault() + ": converged").isPresent();
      });
    }
  }
}
