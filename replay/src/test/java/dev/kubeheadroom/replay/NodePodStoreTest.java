package dev.kubeheadroom.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kubeheadroom.schemas.ContainerKind;
import dev.kubeheadroom.schemas.ContainerSnapshot;
import dev.kubeheadroom.schemas.PodSnapshot;
import dev.kubeheadroom.schemas.ResizeStatus;
import dev.kubeheadroom.topology.booking.BookingReader;
import dev.kubeheadroom.topology.booking.NodeBooking;
import dev.kubeheadroom.topology.booking.PodEntry;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.junit.jupiter.api.Test;

/**
 * {@link NodePodStore} holds a node's pods as the table a booking step hands it, where the store
 * it replaces held one sorted key per pod: under random whole-node and per-key writes, on node
 * names that are prefixes of each other and uids with odd characters (a NUL, chars above and
 * below the separator), every read answers as an {@link ObjectStore} written per key.
 */
class NodePodStoreTest {
  private static final List<String> NODES = List.of("n", "n1", "n10", "n1-a", "N", "n\u00e9", "m\uffff", "n2", "a\0b");
  private static final List<String> UID_PARTS = List.of("a", "b", "a\0", "\u0001", "z\uffff", "0", "aa", "");

  private static PodEntry entry(String uid, int version) {
    PodSnapshot pod = new PodSnapshot("u" + uid, "ns", "p", "node", "Running", "Burstable", "v" + version, version,
        null, 0, null, false, List.of(),
        List.of(new ContainerSnapshot("app", ContainerKind.APP, 100, 200, false, false)), ResizeStatus.NONE);
    return new PodEntry(pod, null, null, false, 0);
  }

  private static String uid(Random random) {
    return UID_PARTS.get(random.nextInt(UID_PARTS.size())) + UID_PARTS.get(random.nextInt(UID_PARTS.size()));
  }

  private static String probe(Random random) {
    String node = NODES.get(random.nextInt(NODES.size()));
    return switch (random.nextInt(5)) {
      case 0 -> node;
      case 1 -> node + BookingReader.SEPARATOR;
      case 2 -> node.substring(0, random.nextInt(node.length() + 1));
      default -> BookingReader.podKey(node, uid(random));
    };
  }

  @Test
  void everyReadAnswersAsAStoreWrittenPerKey() {
    Random random = new Random(3);
    for (int run = 0; run < 30; run++) {
      ObjectStore<PodEntry> reference = new ObjectStore<>("ref");
      NodePodStore store = new NodePodStore("pods");
      TreeMap<String, TreeMap<String, PodEntry>> bookings = new TreeMap<>();
      for (int step = 0; step < 200; step++) {
        String node = NODES.get(random.nextInt(NODES.size()));
        TreeMap<String, PodEntry> pods = bookings.computeIfAbsent(node, k -> new TreeMap<>());
        if (random.nextInt(4) == 0) { // a key written alone (a restore), or deleted
          String uid = uid(random);
          PodEntry e = random.nextInt(3) == 0 ? null : entry(uid, step);
          String key = BookingReader.podKey(node, uid);
          switch (random.nextInt(3)) {
            case 0 -> {
              store.put(key, e);
              reference.put(key, e);
            }
            case 1 -> assertThat(store.delete(key)).isEqualTo(reference.delete(key));
            default -> assertThat(store.putIfAbsent(key, e)).isEqualTo(reference.putIfAbsent(key, e));
          }
          pods.clear();
          try (KeyValueIterator<String, PodEntry> it = reference.prefixScan(node + BookingReader.SEPARATOR,
              new StringSerializer())) {
            it.forEachRemaining(kv -> pods.put(kv.key.substring(node.length() + 1), kv.value));
          }
        } else { // a booking step: some pods added, replaced or removed, the table handed whole
          for (int i = random.nextInt(4); i >= 0; i--) {
            String uid = uid(random);
            PodEntry e = random.nextInt(3) == 0 ? null : entry(uid, step);
            if (e == null) {
              pods.remove(uid);
            } else {
              pods.put(uid, e);
            }
            reference.put(BookingReader.podKey(node, uid), e);
          }
          store.putNode(node, new NodeBooking(node, null, pods).pods());
        }
        assertSameReads(random, reference, store);
      }
    }
  }

  private static void assertSameReads(Random random, ObjectStore<PodEntry> reference, NodePodStore store) {
    assertThat(entries(store.all())).isEqualTo(entries(reference.all()));
    assertThat(store.approximateNumEntries()).isEqualTo(reference.approximateNumEntries());
    for (int i = 0; i < 6; i++) {
      String key = probe(random);
      assertThat(store.get(key)).isEqualTo(reference.get(key));
      assertThat(entries(store.prefixScan(key, new StringSerializer())))
          .isEqualTo(entries(reference.prefixScan(key, new StringSerializer())));
      String other = random.nextInt(4) == 0 ? null : probe(random);
      assertThat(entries(store.range(key, other))).isEqualTo(entries(reference.range(key, other)));
      assertThat(entries(store.range(other, key))).isEqualTo(entries(reference.range(other, key)));
    }
  }

  private static List<KeyValue<String, PodEntry>> entries(KeyValueIterator<String, PodEntry> it) {
    List<KeyValue<String, PodEntry>> out = new ArrayList<>();
    try (it) {
      while (it.hasNext()) {
        String peeked = it.peekNextKey();
        KeyValue<String, PodEntry> kv = it.next();
        assertThat(kv.key).isEqualTo(peeked);
        out.add(kv);
      }
    }
    return out;
  }

  @Test
  void aKeyWithoutTheSeparatorIsRefusedAndNotFound() {
    NodePodStore store = new NodePodStore("pods");
    assertThatThrownBy(() -> store.put("n1", entry("a", 1))).isInstanceOf(IllegalArgumentException.class);
    assertThat(store.get("n1")).isNull();
  }
}
