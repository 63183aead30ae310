package dev.kubeheadroom.actuator;

import static dev.kubeheadroom.actuator.Decisions.change;
import static dev.kubeheadroom.actuator.Decisions.decision;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.schemas.ClusterConfig;
import dev.kubeheadroom.schemas.HeadroomKeys;
import dev.kubeheadroom.schemas.NamespaceInfo;
import dev.kubeheadroom.schemas.PodChange;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * What the actuator's loop costs in CPU while a backlog waits for tokens (the design point's
 * config change: 5,000 nodes × 6 shrinks queued at once, {@code clientQPS} 50 at 4 requests per
 * resize), before and after the backlog index: the loop's poll-timeout and round, as {@link
 * Actuator} runs them, on a simulated ticker (each resize succeeds at once), with the old
 * whole-backlog scan ({@link ScanningCoalescer}) and with the index. On demand:
 *
 * <pre>
 * mvn -B -o -pl actuator test -Dbench.backlog=true -Dtest=BacklogRoundCostTest -Dsurefire.failIfNoSpecifiedTests=false
 * </pre>
 */
@EnabledIfSystemProperty(named = "bench.backlog", matches = "true")
class BacklogRoundCostTest {
  private static final int NODES = 5_000;
  private static final int PER_NODE = 6;
  private static final int LIVE = 4;
  private static final Duration IDLE_POLL = Duration.ofMillis(200);
  private static final ClusterConfig CONFIG = ClusterConfig.DEFAULTS.withDryRun(false);
  private static final Optional<NamespaceInfo> MANAGED = Optional.of(
      new NamespaceInfo("ns", Map.of(HeadroomKeys.MODE_LABEL, HeadroomKeys.MANAGED), 0, 0, 0));
  private static final TopicPartition TP = new TopicPartition("decisions", 0);

  private long ticker;

  @Test
  void aMinuteOfTheLoopWithABacklog() {
    for (int warm = 0; warm < 2; warm++) {
      run(true, 10);
      run(false, 10);
    }
    long[] scan = run(true, 60);
    long[] index = run(false, 60);
    System.out.printf("backlog %d: 60 s of the loop; scan %d ms CPU (%d resizes, %d loop turns); index %d ms CPU (%d resizes, %d loop turns)%n",
        NODES * PER_NODE, scan[0], scan[1], scan[2], index[0], index[1], index[2]);
    assertThat(index[1]).isEqualTo(scan[1]);
  }

  /** CPU ms, resizes and loop turns of {@code seconds} simulated seconds. */
  private long[] run(boolean scanning, int seconds) {
    ticker = 0;
    RateBudget budget = new RateBudget(ClusterConfig.RateLimits.DEFAULTS, () -> ticker);
    Coalescer indexed = new Coalescer();
    ScanningCoalescer scan = new ScanningCoalescer();
    long offset = 0;
    for (int n = 0; n < NODES; n++) {
      List<PodChange> changes = new ArrayList<>();
      for (int p = 0; p < PER_NODE; p++) {
        changes.add(change("u" + n + "-" + p, "ns", "p" + n + "-" + p, 4000, 1600));
      }
      var d = decision("node-" + n, Instant.now(), false, changes.toArray(PodChange[]::new));
      indexed.add(TP, offset, d);
      scan.add(TP, offset++, d);
    }
    Instant now = Instant.now();
    long resizes = 0;
    long turns = 0;
    long cpu0 = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
    while (ticker < Duration.ofSeconds(seconds).toNanos()) {
      turns++;
      long wait;
      List<PodWork> handled = new ArrayList<>();
      if (scanning) { // Actuator.pollTimeout and round as of 6606bc9
        wait = IDLE_POLL.toNanos();
        for (PodWork work : scan.ready(ticker)) {
          wait = Math.min(wait, budget.nanosUntilAvailable(work.node(), LIVE));
        }
        ticker += Math.max(0, wait);
        for (PodWork work : scan.ready(ticker)) {
          if (DecisionGate.check(work, CONFIG, MANAGED, now, Duration.ofMinutes(10)).isEmpty()
              && !budget.tryAcquire(work.node(), LIVE)) {
            continue;
          }
          handled.add(work);
        }
        handled.forEach(scan::handled);
      } else { // as now
        long floor = budget.nanosUntilGlobal(LIVE);
        wait = indexed.leastReady(ticker, IDLE_POLL.toNanos(), floor, work -> budget.nanosUntilAvailable(work.node(), LIVE));
        ticker += Math.max(0, wait);
        indexed.visitReady(ticker, work -> {
          if (DecisionGate.check(work, CONFIG, MANAGED, now, Duration.ofMinutes(10)).isEmpty()
              && !budget.tryAcquire(work.node(), LIVE)) {
            return budget.nanosUntilGlobal(LIVE) == 0;
          }
          handled.add(work);
          return true;
        });
        handled.forEach(indexed::handled);
      }
      resizes += handled.size();
    }
    return new long[] {(ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() - cpu0) / 1_000_000, resizes, turns};
  }
}
