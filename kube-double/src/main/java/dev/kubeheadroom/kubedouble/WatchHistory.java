package dev.kubeheadroom.kubedouble;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;

/**
 * The changes a watch can resume from and a paged list can be read at: the last {@code limit}
 * writes, as kube-apiserver's watch cache keeps a bounded window and etcd forgets what it has
 * compacted. Everything at or below the <em>horizon</em> is forgotten.
 *
 * <p>Not thread-safe: {@link Watches} guards it.
 */
final class WatchHistory {
  private final Deque<StoredChange> changes = new ArrayDeque<>();
  private int limit;
  private long horizon;
  private long revision;

  WatchHistory(int limit) {
    limit(limit);
  }

  void limit(int limit) {
    if (limit < 1) {
      throw new IllegalArgumentException("history limit must be positive, got " + limit);
    }
    this.limit = limit;
    trim();
  }

  void record(StoredChange change) {
    changes.addLast(change);
    revision = Math.max(revision, change.revision());
    trim();
  }

  /** The highest revision recorded (or compacted to). */
  long revision() {
    return revision;
  }

  /** Revisions at or below this are forgotten; a read from one of them is 410 Expired. */
  long horizon() {
    return horizon;
  }

  /** Forgets everything up to {@code through} (etcd compaction at that revision). */
  void compact(long through) {
    revision = Math.max(revision, through);
    horizon = Math.max(horizon, through);
    while (!changes.isEmpty() && changes.peekFirst().revision() <= horizon) {
      changes.removeFirst();
    }
  }

  /**
   * Every retained change after {@code from}, oldest first; throws 410 Expired when changes after
   * {@code from} have been forgotten, with the watch cache's message
   * ({@code staging/src/k8s.io/apiserver/pkg/storage/cacher/watch_cache.go},
   * {@code getAllEventsSinceLocked}: "too old resource version: %d (%d)", the second number being the
   * oldest revision it can still resume from).
   */
  List<StoredChange> since(long from) {
    if (from < horizon) {
      throw expired("too old resource version: " + from + " (" + horizon + ")").asFailure();
    }
    List<StoredChange> out = new ArrayList<>();
    Iterator<StoredChange> newestFirst = changes.descendingIterator();
    while (newestFirst.hasNext()) {
      StoredChange change = newestFirst.next();
      if (change.revision() <= from) {
        break;
      }
      out.add(change);
    }
    Collections.reverse(out);
    return out;
  }

  static ApiError expired(String message) {
    return new ApiError(410, "Expired", message, "", "", "");
  }

  private void trim() {
    while (changes.size() > limit) {
      horizon = Math.max(horizon, changes.removeFirst().revision());
    }
  }
}
