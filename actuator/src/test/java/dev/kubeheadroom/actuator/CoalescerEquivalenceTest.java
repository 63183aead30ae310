package dev.kubeheadroom.actuator;

import static dev.kubeheadroom.actuator.Decisions.change;
import static dev.kubeheadroom.actuator.Decisions.decision;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.schemas.PodChange;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/**
 * The indexed {@link Coalescer} yields exactly what the whole-backlog scan it replaced
 * ({@link ScanningCoalescer}) yields, on random sequences of adds (superseding pods), skips,
 * outcomes, retries (also of stale and superseded changes), revocations and commits, read at
 * random ticker times — also times going backwards, which the scan allowed.
 */
class CoalescerEquivalenceTest {
  private static final List<TopicPartition> PARTITIONS = List.of(
      new TopicPartition("decisions", 0), new TopicPartition("decisions", 1), new TopicPartition("decisions", 2));

  @Test
  void theIndexYieldsWhatTheScanYields() {
    // 40 × 150 steps: half a second of CPU, cold
    for (long seed = 0; seed < 40; seed++) {
      replay(new Random(seed), seed);
    }
  }

  private static void replay(Random random, long seed) {
    Coalescer indexed = new Coalescer();
    ScanningCoalescer scan = new ScanningCoalescer();
    Map<TopicPartition, Long> offsets = new HashMap<>();
    List<PodWork> seen = new ArrayList<>();
    long now = 0;
    for (int step = 0; step < 150; step++) {
      TopicPartition tp = PARTITIONS.get(random.nextInt(PARTITIONS.size()));
      int op = random.nextInt(10);
      if (op < 4) {
        long offset = offsets.merge(tp, 1L + random.nextInt(2), Long::sum);
        List<PodChange> changes = new ArrayList<>();
        for (int i = random.nextInt(4); i > 0; i--) {
          changes.add(change("u" + random.nextInt(25), "ns", "p", 1000, 1000 + 10 * random.nextInt(100)));
        }
        var decision = decision("n" + random.nextInt(5), random.nextInt(4) == 0, changes.toArray(PodChange[]::new));
        indexed.add(tp, offset, decision);
        scan.add(tp, offset, decision);
      } else if (op == 4) {
        long offset = offsets.merge(tp, 1L, Long::sum);
        indexed.skip(tp, offset);
        scan.skip(tp, offset);
      } else if (op < 8 && !seen.isEmpty()) {
        // a change from the history: often the pending one, sometimes one superseded or already handled
        List<PodWork> ready = scan.ready(now);
        PodWork work = !ready.isEmpty() && random.nextInt(3) > 0 ? ready.get(random.nextInt(ready.size()))
            : seen.get(random.nextInt(seen.size()));
        if (op == 5) {
          indexed.handled(work);
          scan.handled(work);
        } else {
          long notBefore = now + random.nextInt(2000) - 200;
          indexed.retryLater(work, notBefore);
          scan.retryLater(work, notBefore);
        }
      } else if (op == 8 && random.nextInt(4) == 0) {
        List<TopicPartition> revoked = List.of(tp);
        indexed.revoke(revoked);
        scan.revoke(revoked);
      } else {
        indexed.committed(indexed.committable());
        scan.committed(scan.committable());
      }
      now += random.nextInt(10) == 0 ? -random.nextInt(500) : random.nextInt(300);
      seen.addAll(scan.ready(Long.MAX_VALUE));
      if (seen.size() > 300) {
        seen.subList(0, seen.size() - 300).clear();
      }
      compare(indexed, scan, now, random, "seed " + seed + " step " + step);
    }
  }

  private static void compare(Coalescer indexed, ScanningCoalescer scan, long now, Random random, String at) {
    List<PodWork> expected = scan.ready(now);
    same(at + " ready", indexed.ready(now), expected);
    same(at + " all", indexed.ready(Long.MAX_VALUE), scan.ready(Long.MAX_VALUE));
    same(at + " next retry", indexed.nextRetryNanos(), scan.nextRetryNanos());
    same(at + " pending", indexed.pendingCount(), scan.pendingCount());
    same(at + " committable", indexed.committable(), scan.committable());
    // every pending change is ready at the end of time
    same(at + " dry-run", indexed.anyDryRun(), scan.ready(Long.MAX_VALUE).stream().anyMatch(PodWork::dryRun));
    // a window: after some seq, at most some count
    long after = expected.isEmpty() ? 0 : expected.get(random.nextInt(expected.size())).seq();
    int max = 1 + random.nextInt(5);
    same(at + " window", indexed.ready(now, after, max), expected.stream().filter(w -> w.seq() > after).limit(max).toList());
    // visiting stops where the visitor says, having seen the same prefix
    int stopAfter = random.nextInt(expected.size() + 1);
    List<PodWork> visited = new ArrayList<>();
    indexed.visitReady(now, w -> visited.add(w) && visited.size() < stopAfter);
    same(at + " visited", visited, expected.subList(0, Math.min(expected.size(), Math.max(1, stopAfter))));
    // the least wait, reading no further than the first at the floor
    long ceiling = 1_000;
    same(at + " least", indexed.leastReady(now, ceiling, -1, CoalescerEquivalenceTest::wait),
        expected.stream().mapToLong(CoalescerEquivalenceTest::wait).reduce(ceiling, Math::min));
    long floor = random.nextInt(60);
    int reads = 0;
    while (reads < expected.size() && wait(expected.get(reads)) > floor) {
      reads++;
    }
    List<PodWork> read = new ArrayList<>();
    long stopped = indexed.leastReady(now, ceiling, floor, w -> {
      read.add(w);
      return wait(w);
    });
    same(at + " read to the floor", read, expected.subList(0, Math.min(expected.size(), reads + 1)));
    same(at + " least to the floor", stopped, expected.stream().limit(reads + 1L).mapToLong(CoalescerEquivalenceTest::wait)
        .reduce(ceiling, Math::min));
  }

  /** Plain equality first: thousands of steps through AssertJ would cost seconds. */
  private static void same(String what, Object actual, Object expected) {
    if (!expected.equals(actual)) {
      assertThat(actual).as(what).isEqualTo(expected);
    }
  }

  private static long wait(PodWork work) {
    return work.seq() * 37 % 97;
  }
}
