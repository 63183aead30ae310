package dev.kubeheadroom.replay;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * An iterator that drains another on a thread of its own, a batch ahead: a replay reads and
 * parses its log on one core while the topology runs on the other, so the wall time is the larger
 * of the two rather than their sum. The items, their order and a failure of the source (thrown
 * from {@link #hasNext} after the items before it) are exactly the source's; only the source is
 * touched on the reading thread. {@link #close} stops the reader (a replay that ends early).
 */
final class ReadAhead<T> implements Iterator<T>, AutoCloseable {
  static final int BATCH = 64;
  private static final int BATCHES = 4;

  /** A batch of items, the end, or the source's failure. */
  private sealed interface Chunk<T> {}

  private record Items<T>(List<T> items) implements Chunk<T> {}

  private record End<T>(Throwable failure) implements Chunk<T> {}

  private final BlockingQueue<Chunk<T>> queue = new ArrayBlockingQueue<>(BATCHES);
  private final Thread reader;
  private List<T> current = List.of();
  private int index;
  private End<T> end;

  ReadAhead(Iterator<T> source) {
    reader = new Thread(() -> drain(source), "headroom-read-ahead");
    reader.setDaemon(true);
    reader.start();
  }

  private void drain(Iterator<T> source) {
    try {
      List<T> batch = new ArrayList<>(BATCH);
      Throwable failure = null;
      try {
        while (source.hasNext()) {
          batch.add(source.next());
          if (batch.size() == BATCH) {
            queue.put(new Items<>(batch));
            batch = new ArrayList<>(BATCH);
          }
        }
      } catch (RuntimeException | Error e) {
        failure = e; // thrown to the consumer where the source threw it
      }
      if (!batch.isEmpty()) {
        queue.put(new Items<>(batch));
      }
      queue.put(new End<>(failure));
    } catch (InterruptedException e) {
      // closed: nobody reads what is left
    }
  }

  @Override
  public boolean hasNext() {
    while (index == current.size()) {
      if (end != null) {
        if (end.failure() instanceof RuntimeException e) {
          throw e;
        }
        if (end.failure() instanceof Error e) {
          throw e;
        }
        return false;
      }
      Chunk<T> chunk;
      try {
        chunk = queue.take();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting for the log", e);
      }
      if (chunk instanceof Items<T> items) {
        current = items.items();
        index = 0;
      } else if (chunk instanceof End<T> last) {
        end = last;
      }
    }
    return true;
  }

  @Override
  public T next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    return current.get(index++);
  }

  @Override
  public void close() {
    reader.interrupt();
    try {
      reader.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
