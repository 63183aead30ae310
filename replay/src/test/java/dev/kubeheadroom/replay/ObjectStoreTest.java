package dev.kubeheadroom.replay;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.junit.jupiter.api.Test;

class ObjectStoreTest {
  final ObjectStore<Integer> store = new ObjectStore<>("s");

  private static List<String> keys(KeyValueIterator<String, Integer> it) {
    List<String> out = new ArrayList<>();
    try (it) {
      it.forEachRemaining(kv -> out.add(kv.key));
    }
    return out;
  }

  @Test
  void prefixScanReturnsExactlyTheKeysWithThePrefixInOrder() {
    for (String k : List.of("n1\0b", "n1\0a", "n10\0a", "n1", "n2\0a", "n0\0z")) {
      store.put(k, 1);
    }
    assertThat(keys(store.prefixScan("n1\0", new StringSerializer()))).containsExactly("n1\0a", "n1\0b");
    assertThat(keys(store.prefixScan("n3\0", new StringSerializer()))).isEmpty();
  }

  @Test
  void aNullValueIsATombstoneAndRangesAreInclusive() {
    store.putAll(List.of(KeyValue.pair("a", 1), KeyValue.pair("b", 2), KeyValue.pair("c", 3)));
    store.put("b", null);
    assertThat(store.get("b")).isNull();
    assertThat(store.approximateNumEntries()).isEqualTo(2);
    assertThat(keys(store.range("a", "c"))).containsExactly("a", "c");
    assertThat(keys(store.range("c", "a"))).isEmpty();
    assertThat(keys(store.range(null, "a"))).containsExactly("a");
    assertThat(store.putIfAbsent("a", 9)).isEqualTo(1);
    assertThat(store.putIfAbsent("d", 4)).isNull();
    assertThat(store.delete("d")).isEqualTo(4);
    assertThat(keys(store.all())).containsExactly("a", "c");
  }

  /**
   * Writes wait unsorted until a scan (a representation only): under random writes, removals,
   * point reads and scans interleaved, every read answers what a sorted map written at once does.
   */
  @Test
  void everyReadSeesEveryWriteAsASortedMapWould() {
    Random random = new Random(14);
    TreeMap<String, Integer> reference = new TreeMap<>();
    for (int step = 0; step < 20_000; step++) {
      String key = "n" + random.nextInt(12) + "\0" + random.nextInt(40);
      switch (random.nextInt(9)) {
        case 0, 1, 2, 3 -> {
          store.put(key, step);
          reference.put(key, step);
        }
        case 4 -> {
          store.put(key, null);
          reference.remove(key);
        }
        case 5 -> assertThat(store.delete(key)).isEqualTo(reference.remove(key));
        case 6 -> assertThat(store.get(key)).isEqualTo(reference.get(key));
        case 7 -> {
          String node = "n" + random.nextInt(12) + "\0";
          assertThat(entries(store.prefixScan(node, new StringSerializer())))
              .containsExactlyEntriesOf(reference.subMap(node, node + "\uffff"));
        }
        default -> {
          assertThat(entries(store.all())).containsExactlyEntriesOf(reference);
          assertThat(store.approximateNumEntries()).isEqualTo(reference.size());
        }
      }
    }
  }

  /** More unsorted writes than the bound sorts them in, and nothing is lost. */
  @Test
  void manyWritesWithoutAScanAreAllKept() {
    int n = ObjectStore.MAX_UNSORTED + 10;
    for (int i = 0; i < n; i++) {
      store.put(String.format("k%08d", i), i);
    }
    store.put("k00000000", null);
    assertThat(store.get(String.format("k%08d", n - 1))).isEqualTo(n - 1);
    assertThat(store.get("k00000000")).isNull();
    assertThat(keys(store.all())).hasSize(n - 1).first().isEqualTo("k00000001");
  }

  private static Map<String, Integer> entries(KeyValueIterator<String, Integer> it) {
    Map<String, Integer> out = new java.util.LinkedHashMap<>();
    try (it) {
      it.forEachRemaining(kv -> out.put(kv.key, kv.value));
    }
    return out;
  }
}
