package dev.kubeheadroom.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.PriorityQueue;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The debouncer's due queue moved from a {@code PriorityQueue} of (Instant, node) records to
 * {@link DueQueue}'s primitive heap: under random adds, polls, due checks and clears (times that
 * tie to the second, to the nano and across the epoch, node names that tie), every poll returns
 * the node the record queue would, and the head is due exactly when the record queue's is.
 */
class DueQueueTest {
  private record Candidate(Instant at, String node) implements Comparable<Candidate> {
    @Override
    public int compareTo(Candidate o) {
      int byTime = at.compareTo(o.at);
      return byTime != 0 ? byTime : node.compareTo(o.node);
    }
  }

  private static final List<String> NODES = List.of("n", "n1", "n10", "n2", "a", "N", "n\u00e9");

  private static Instant time(Random random) {
    long base = random.nextInt(4) == 0 ? -1 - random.nextInt(3) : 1_700_000_000L + random.nextInt(4);
    return Instant.ofEpochSecond(base, random.nextInt(3) == 0 ? 0 : random.nextInt(3) * 333_333_333L + random.nextInt(2));
  }

  @Test
  void pollsAndDueChecksAnswerAsThePriorityQueue() {
    Random random = new Random(7);
    for (int run = 0; run < 200; run++) {
      PriorityQueue<Candidate> reference = new PriorityQueue<>();
      DueQueue queue = new DueQueue();
      for (int step = 0; step < 400; step++) {
        int op = random.nextInt(10);
        if (op < 5) {
          Candidate c = new Candidate(time(random), NODES.get(random.nextInt(NODES.size())));
          reference.add(c);
          queue.add(c.at(), c.node());
        } else if (op < 9) {
          Instant now = time(random);
          boolean due = !reference.isEmpty() && !reference.peek().at().isAfter(now);
          assertThat(queue.headDueAt(now)).isEqualTo(due);
          if (due) {
            assertThat(queue.poll()).isEqualTo(reference.poll().node());
          }
        } else if (random.nextInt(20) == 0) {
          reference.clear();
          queue.clear();
        }
        assertThat(queue.size()).isEqualTo(reference.size());
        assertThat(queue.isEmpty()).isEqualTo(reference.isEmpty());
      }
      while (!reference.isEmpty()) {
        assertThat(queue.headDueAt(Instant.MAX)).isTrue();
        assertThat(queue.poll()).isEqualTo(reference.poll().node());
      }
      assertThat(queue.headDueAt(Instant.MAX)).isFalse();
    }
  }
}
