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
 * only): under random adds, replacements, removals and batch edits, the table answers every read
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
    for (int step = 0; step < 20_000; step++) {
      String uid = "uid-" + random.nextInt(60);
      switch (random.nextInt(6)) {
        case 0, 1, 2 -> {
          PodEntry e = entry(uid, step);
          table = table.with(uid, e);
          reference.put(uid, e);
        }
        case 3 -> {
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
      assertThat(table.size()).isEqualTo(reference.size());
      assertThat(new ArrayList<>(table.keySet())).isEqualTo(new ArrayList<>(reference.keySet()));
      assertThat(new ArrayList<>(table.values())).isEqualTo(new ArrayList<>(reference.values()));
      assertThat(table).isEqualTo(reference);
      assertThat(reference).isEqualTo(table);
      assertThat(table.hashCode()).isEqualTo(reference.hashCode());
      if (!reference.isEmpty()) {
        assertThat(table.firstKey()).isEqualTo(reference.firstKey());
        assertThat(table.lastKey()).isEqualTo(reference.lastKey());
        assertThat(table.headMap(uid)).isEqualTo(reference.headMap(uid));
      }
    }
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
