package dev.kubeheadroom.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kubeheadroom.projection.Malformed;
import dev.kubeheadroom.projection.WatchLogItem;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code simulate} drains its log, each item prepared ({@link PreparedItem}), on a second thread:
 * the consumer sees the source's items in order, and a failure of the source after the items
 * before it, not earlier and not lost.
 */
class ReadAheadTest {
  /** {@code n} items, then {@code failure} thrown from hasNext (null: the end). */
  private static Iterator<WatchLogItem> source(int n, RuntimeException failure) {
    return new Iterator<>() {
      private int i;

      @Override
      public boolean hasNext() {
        if (i == n && failure != null) {
          throw failure;
        }
        return i < n;
      }

      @Override
      public WatchLogItem next() {
        i++;
        return new Malformed(i, "item " + i);
      }
    };
  }

  @Test
  void theItemsComeInOrderAcrossBatchesAndThenTheEnd() {
    int n = ReadAhead.BATCH * 7 + 3;
    List<Long> seen = new ArrayList<>();
    try (ReadAhead<PreparedItem> items = new ReadAhead<>(PreparedItem.mapped(source(n, null), true))) {
      while (items.hasNext()) {
        seen.add(items.next().item().lineNumber());
      }
      assertThat(items.hasNext()).isFalse();
    }
    assertThat(seen).hasSize(n);
    for (int i = 0; i < n; i++) {
      assertThat(seen.get(i)).isEqualTo(i + 1L);
    }
  }

  @Test
  void aFailureOfTheSourceIsThrownAfterTheItemsBeforeIt() {
    IllegalStateException failure = new IllegalStateException("watch log, after line 200");
    for (int n : new int[] {0, 1, ReadAhead.BATCH, 200}) {
      try (ReadAhead<PreparedItem> items = new ReadAhead<>(PreparedItem.mapped(source(n, failure), true))) {
        for (int i = 1; i <= n; i++) {
          assertThat(items.hasNext()).isTrue();
          assertThat(items.next().item().lineNumber()).isEqualTo(i);
        }
        assertThatThrownBy(items::hasNext).isSameAs(failure);
      }
    }
  }
}
