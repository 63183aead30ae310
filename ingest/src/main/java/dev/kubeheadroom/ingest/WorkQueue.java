package dev.kubeheadroom.ingest;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * What the {@link IngestLoop} has to do, each item once however often it was asked for: the keys
 * of objects an informer event named (client-go's work queue, one worker: a key waiting is not
 * added twice, and the object is read from the informer's cache when the key is worked, so ten
 * updates of a pod in a row are one piece of work on its newest state), and the loop's chores
 * (a full re-publish, the periodic node sync). Informer handlers and other threads add; only
 * the loop takes, everything waiting at once.
 */
final class WorkQueue {
  /** The kinds of keys, in the order {@link IngestLoop} works them within a batch. */
  enum Kind { NODE, NAMESPACE, LIMIT_RANGE, CONFIG, VPA, POD }

  sealed interface Work {}

  /** An object's informer key ({@code namespace/name}, or the name of a cluster-scoped one). */
  record Key(Kind kind, String key) implements Work {}

  /** A full re-publish (a new leadership, or Kafka lost records), for {@code reason}. */
  record Resync(String reason) implements Work {}

  /** The periodic node sync. */
  record NodeSyncs() implements Work {}

  private final LinkedHashSet<Work> waiting = new LinkedHashSet<>(); // guarded by this
  private boolean closed; // guarded by this

  /** Adds {@code work} unless it is waiting already. Never blocks. */
  synchronized void add(Work work) {
    if (!closed && waiting.add(work)) {
      notifyAll();
    }
  }

  /**
   * Everything waiting, in the order it was first added, waiting for some if there is none.
   *
   * @return empty once the queue is closed
   */
  synchronized List<Work> takeAll() throws InterruptedException {
    while (waiting.isEmpty() && !closed) {
      wait();
    }
    if (closed) {
      return List.of();
    }
    List<Work> all = new ArrayList<>(waiting);
    waiting.clear();
    return all;
  }

  /** Nothing more is taken: {@link #takeAll} returns empty. */
  synchronized void close() {
    closed = true;
    waiting.clear();
    notifyAll();
  }
}
