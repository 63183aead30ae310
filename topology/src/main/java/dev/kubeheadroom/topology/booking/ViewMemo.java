package dev.kubeheadroom.topology.booking;

import dev.kubeheadroom.schemas.ClusterConfig;
import dev.kubeheadroom.schemas.NodeSnapshot;
import dev.kubeheadroom.topology.booking.NodeDecider.PodView;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;

/**
 * Each node's pod views from its last decision, for its next decision to reuse where nothing a
 * view is built from has changed: rebuilding every view at every evaluation was a sixth of a
 * replay, while an event changes one pod. A view is reused when its pod entry is the same object
 * (entries are immutable: any change makes a new one), under the same node snapshot and config
 * objects, at the same {@link #sync globals version} (namespaces), and when it holds no clock:
 * no backoff and no real pending target, whose expiry depends on the time. Whatever reads it
 * gets equal views, so decisions are the same with or without a memo.
 */
public final class ViewMemo {
  private record Views(NodeSnapshot snapshot, ClusterConfig config, Map<String, PodView> byUid) {}

  private final Map<String, Views> nodes = new HashMap<>();
  private long version = Long.MIN_VALUE;

  /**
   * Drops every view when the global tables moved: a namespace's labels and LimitRanges are in
   * the views. Live, a namespace written while a node is decided is read either before or after
   * that write, as a decision without the memo also could; the bump that follows the write
   * clears the memo, as it re-reads the config ({@code BookingProcessor.config}).
   */
  public void sync(long globalsVersion) {
    if (globalsVersion != version) {
      nodes.clear();
      version = globalsVersion;
    }
  }

  /** The node is gone: its views too. */
  public void forget(String node) {
    nodes.remove(node);
  }

  /** The views of the node's last decision, if taken under this snapshot and config; else null. */
  Map<String, PodView> last(NodeBooking booking, ClusterConfig config) {
    Views v = nodes.get(booking.node());
    return v != null && v.snapshot() == booking.snapshot() && v.config() == config ? v.byUid() : null;
  }

  void remember(NodeBooking booking, ClusterConfig config, Map<String, PodView> views) {
    nodes.put(booking.node(), new Views(booking.snapshot(), config, views));
  }

  /**
   * Walks the views of a node's last decision alongside its pods, both in uid order: a merge,
   * not a hash lookup per pod (which cost as much as the rebuild it saved).
   */
  static final class Cursor {
    private final Iterator<PodView> views;
    private PodView at;

    Cursor(Map<String, PodView> last) {
      this.views = last == null ? Collections.emptyIterator() : last.values().iterator();
      this.at = views.hasNext() ? views.next() : null;
    }

    /**
     * The view last built for {@code entry} if a rebuild now would give the same, else null.
     * Entries must come in uid order.
     */
    PodView reusable(PodEntry entry) {
      String uid = entry.pod().uid();
      while (at != null && at.entry() != entry && at.entry().pod().uid().compareTo(uid) < 0) {
        at = views.hasNext() ? views.next() : null;
      }
      return at != null && at.entry() == entry && timeless(entry) ? at : null;
    }
  }

  /**
   * Whether the entry's view is the same at any time: {@code Eligibility} reads the clock only
   * for a backoff, {@code NodeDecider.usablePending} only for a real (not dry-run) target.
   */
  static boolean timeless(PodEntry entry) {
    return entry.backoffSince() == null && (entry.pending() == null || entry.pending().dryRun());
  }
}
