package dev.kubeheadroom.replay;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
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
}
