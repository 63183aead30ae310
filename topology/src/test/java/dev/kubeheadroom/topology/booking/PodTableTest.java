package dev.kubeheadroom.topology.booking;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.schemas.ContainerKind;
import dev.kubeheadroom.schemas.ContainerSnapshot;
import dev.kubeheadroom.schemas.PodSnapshot;
import dev.kubeheadroom.schemas.ResizeStatus;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * A booking's pods moved from a copied {@code TreeMap} to {@link PodTable} (a representation
 * only): under 5,000 random adds, replacements, removals and batch edits, the table answers every read
 * as the {@code TreeMap} the old code built would, in the same order, and equals it.
 */
class PodTableTest {
  private static PodEntry entry(String uid, int version) {
    PodSnapshot pod = new PodSnapshot(uid, "ns", "p-" + uid, "n1", "Running", "Burstable", "v" + version, 1,
        null, 0, null, false, List.of(),
        List.of(new ContainerSnapshot("app", ContainerKind.APP, 100, 200, false, false)), ResizeStatus.NONE);
    return PodEntry.of(pod);
  }

  @Test
  void everyReadAnswersAsTheSortedMapItReplaces() {
    Random random = new Random(10);
    TreeMap<String, PodEntry> reference = new TreeMap<>();
    PodTable table = PodTable.EMPTY;
    for (int step = 0; step < 5_000; step++) { // well past the 60 uids' every state: a second of CPU
      String uid = "uid-" + random.nextInt(60);
      switch (random.nextInt(6)) {
        case 0, 1, 2 -> {
          PodEntry e = entry(uid, step);
          table = table.with(uid, e);
          reference.put(uid, e);
        }
        case 3 -> {
          if (random.nextBoolean()) { // one pod removed: the single-uid form
            PodTable before = table;
            table = table.without(uid);
            assertThat(table != before).isEqualTo(reference.remove(uid) != null);
            break;
          }
          Set<String> gone = new HashSet<>();
          for (int i = random.nextInt(4); i >= 0; i--) {
            gone.add("uid-" + random.nextInt(60));
          }
          PodTable before = table;
          table = table.without(gone);
          boolean anyHere = reference.keySet().removeAll(gone);
          assertThat(table != before).isEqualTo(anyHere);
        }
        case 4 -> {
          Map<String, PodEntry> edits = new HashMap<>();
          for (String k : reference.keySet()) {
            if (random.nextInt(5) == 0) {
              edits.put(k, entry(k, step));
            }
          }
          table = table.replacing(edits);
          reference.putAll(edits);
        }
        default -> {
          assertThat(table.get(uid)).isSameAs(reference.get(uid));
          assertThat(table.containsKey(uid)).isEqualTo(reference.containsKey(uid));
        }
      }
      // Plain comparisons per step (assertion objects per step cost more than the table), the
      // assertion with its message only when one differs.
      boolean same = table.size() == reference.size()
          && new ArrayList<>(table.keySet()).equals(new ArrayList<>(reference.keySet()))
          && new ArrayList<>(table.values()).equals(new ArrayList<>(reference.values()))
          && table.equals(reference) && reference.equals(table)
          && table.hashCode() == reference.hashCode();
      if (same && !reference.isEmpty() && step % 10 == 0) {
        same = table.firstKey().equals(reference.firstKey()) && table.lastKey().equals(reference.lastKey())
            && table.headMap(uid).equals(reference.headMap(uid));
      }
      if (!same) {
        assertThat(table).as("step %d", step).containsExactlyEntriesOf(reference);
        assertThat(table.hashCode()).as("step %d", step).isEqualTo(reference.hashCode());
        assertThat(table.headMap(uid)).as("step %d", step).isEqualTo(reference.headMap(uid));
        assertThat(same).as("step %d: table %s, reference %s", step, table, reference).isTrue();
      }
    }
  }

  @Test
  void aTableOfThousandsSplitsAndMergesItsChunksAndStillAnswersAsTheSortedMap() {
    // Thousands of uids: chunks fill, split and empty (PodChunks.MAX is 128), across random edits.
    Random random = new Random(11);
    TreeMap<String, PodEntry> reference = new TreeMap<>();
    PodTable table = PodTable.EMPTY;
    for (int step = 0; step < 30_000; step++) {
      String uid = "uid-" + random.nextInt(3_000);
      boolean grow = step < 15_000 ? random.nextInt(4) != 0 : random.nextInt(4) == 0; // fill, then drain
      if (grow) {
        PodEntry e = entry(uid, step);
        table = table.with(uid, e);
        reference.put(uid, e);
      } else {
        PodTable before = table;
        table = table.without(uid);
        assertThat(table != before).isEqualTo(reference.remove(uid) != null);
      }
      String probe = "uid-" + random.nextInt(3_000);
      if (table.get(probe) != reference.get(probe) || table.size() != reference.size()) {
        assertThat(table.get(probe)).as("step %d, %s", step, probe).isSameAs(reference.get(probe));
        assertThat(table.size()).as("step %d", step).isEqualTo(reference.size());
      }
      if (step % 1_000 == 0 || step == 29_999) {
        assertThat(new ArrayList<>(table.keySet())).as("step %d", step).isEqualTo(new ArrayList<>(reference.keySet()));
        assertThat(table).as("step %d", step).isEqualTo(reference);
      }
    }
    assertThat(reference.size()).as("the drain left some").isBetween(1, 2_000);
  }

  @Test
  void aBookingBuiltFromAnyMapHoldsItsPodsInUidOrder() {
    TreeMap<String, PodEntry> unordered = new TreeMap<>(java.util.Comparator.reverseOrder());
    for (String uid : List.of("c", "a", "b")) {
      unordered.put(uid, entry(uid, 0));
    }
    NodeBooking booking = new NodeBooking("n1", null, unordered);
    assertThat(booking.pods().keySet()).containsExactly("a", "b", "c");
    assertThat(booking.with("ab", entry("ab", 1)).pods().keySet()).containsExactly("a", "ab", "b", "c");
    assertThat(booking.pods().keySet()).containsExactly("a", "b", "c"); // the old booking is untouched
  }
}
