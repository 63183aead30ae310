package dev.kubeheadroom.topology;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

/**
 * The nodes whose pods an ingest re-publish is still sending: held from the node's {@code begin}
 * {@link dev.kubeheadroom.schemas.SyncMark} to its {@code end}, and not decided meanwhile, so a
 * node filled from empty is not decided on the part of its pods read so far (DESIGN.md, "Initial
 * sync"). A hold whose {@code end} never comes lapses {@code limit} after its {@code begin}. Times
 * are the booking's (a record's time, or the punctuator's when it reads a backlog), so a replay
 * holds exactly as the live run did. In memory only: a task's {@code init} starts with none.
 */
final class SyncHolds {
  private static final class Hold {
    final Instant since;
    boolean deferred; // a decision was due while held: the end makes the node due

    Hold(Instant since) {
      this.since = since;
    }
  }

  private final Map<String, Hold> held = new HashMap<>();
  private final Duration limit;

  SyncHolds(Duration limit) {
    this.limit = limit;
  }

  /** The node's pods begin at {@code at}: held until its end (a new begin starts again). */
  void begin(String node, Instant at) {
    held.put(node, new Hold(at));
  }

  /** The node's pods are all read: whether a decision was held back (the node is due now). */
  boolean end(String node) {
    Hold hold = held.remove(node);
    return hold != null && hold.deferred;
  }

  /**
   * When a decision of {@code node} due at {@code now} may be made: null at once (not held, or its
   * hold lapsed and is dropped), else when the hold lapses (the decision is held back till then).
   */
  Instant heldUntil(String node, Instant now) {
    Hold hold = held.isEmpty() ? null : held.get(node);
    if (hold == null) {
      return null;
    }
    Instant lapses = hold.since.plus(limit);
    if (!now.isBefore(lapses)) {
      held.remove(node);
      return null;
    }
    hold.deferred = true;
    return lapses;
  }
}
