package dev.kubeheadroom.actuator;

import dev.kubeheadroom.schemas.ClusterConfig.RateLimits;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * The API write budget (docs/design/headroom-design.txt §6.2c, §7): a token bucket per node ({@code
 * perNodePatchesPerSecond}, burst one second's worth) and one global bucket ({@code clientQps},
 * burst {@code clientBurst}) counting API requests. Pure: time comes from an injected nanosecond
 * ticker; single-threaded.
 *
 * <p>A node out of tokens never holds up another node: callers ask per node and move on.
 *
 * <p>Several replicas share the global budget through {@link #share}: each gets the fraction of
 * the decisions partitions it owns ({@link GroupShare}), so the group as a whole keeps to {@code
 * clientQps} and {@code clientBurst}. The per-node bucket needs no share: a node's decisions all
 * land in one partition, so one replica at a time spends it.
 */
final class RateBudget {
  private final LongSupplier nanoTicker;
  private final Map<String, Bucket> nodes = new HashMap<>();
  private RateLimits limits;
  private double share = 1.0;
  private Bucket global;

  RateBudget(RateLimits limits, LongSupplier nanoTicker) {
    this.nanoTicker = Objects.requireNonNull(nanoTicker, "nanoTicker");
    this.limits = Objects.requireNonNull(limits, "limits");
    this.global = Bucket.full(limits.clientQps(), limits.clientBurst(), nanoTicker.getAsLong());
  }

  /**
   * This replica's fraction (0..1) of the global budget: rate and burst both scale, so replicas
   * whose fractions add up to 1 send at most {@code clientQps} together, bursts included.
   */
  void share(double fraction) {
    if (!(fraction >= 0 && fraction <= 1)) {
      throw new IllegalArgumentException("share must be within 0..1, got " + fraction);
    }
    share = fraction;
    global = global.resized(limits.clientQps() * share, limits.clientBurst() * share, nanoTicker.getAsLong());
  }

  double share() {
    return share;
  }

  /** New limits from the cluster config; tokens already earned are kept up to the new burst. */
  void update(RateLimits next) {
    Objects.requireNonNull(next, "limits");
    if (next.equals(limits)) {
      return;
    }
    long now = nanoTicker.getAsLong();
    limits = next;
    global = global.resized(next.clientQps() * share, next.clientBurst() * share, now);
    nodes.replaceAll((node, bucket) -> bucket.resized(next.perNodePatchesPerSecond(), nodeBurst(next), now));
  }

  RateLimits limits() {
    return limits;
  }

  /**
   * Takes one patch token of {@code node} and {@code requests} global tokens if both are
   * available now; otherwise takes nothing.
   */
  boolean tryAcquire(String node, int requests) {
    long now = nanoTicker.getAsLong();
    Bucket bucket = nodeBucket(node, now).refilled(now);
    Bucket g = global.refilled(now);
    boolean granted = bucket.has(1) && g.perSecond > 0 && g.has(globalWait(requests));
    nodes.put(node, granted ? bucket.take(1) : bucket);
    global = granted ? g.take(Math.max(requests, 1)) : g;
    return granted;
  }

  /** Nanoseconds until {@link #tryAcquire} for {@code node} could succeed (0: now). */
  long nanosUntilAvailable(String node, int requests) {
    long now = nanoTicker.getAsLong();
    Bucket bucket = nodeBucket(node, now).refilled(now);
    return Math.max(bucket.nanosUntil(1), global.refilled(now).nanosUntil(globalWait(requests)));
  }

  /** Nanoseconds until the global bucket alone could pay {@code requests} (0: now): no node can be tried sooner. */
  long nanosUntilGlobal(int requests) {
    return global.refilled(nanoTicker.getAsLong()).nanosUntil(globalWait(requests));
  }

  /** Drops node buckets that are full again (an idle node costs no memory). */
  void forgetIdleNodes() {
    long now = nanoTicker.getAsLong();
    nodes.values().removeIf(b -> b.refilled(now).has(b.capacity));
  }

  int trackedNodes() {
    return nodes.size();
  }

  /**
   * The tokens a try of {@code requests} waits for. One costing more than the whole burst (a
   * replica's share of a small {@code clientBurst}) could never run: it waits for a full bucket,
   * then still pays every request, leaving the bucket in debt, so the rate holds whatever the
   * burst. (Charging only the capacity let two replicas of a 4-request burst send 2x clientQPS.)
   */
  private double globalWait(int requests) {
    return Math.min(Math.max(requests, 1), global.capacity);
  }

  private Bucket nodeBucket(String node, long now) {
    Bucket bucket = nodes.get(node);
    return bucket != null ? bucket : Bucket.full(limits.perNodePatchesPerSecond(), nodeBurst(limits), now);
  }

  /** One second's worth of patches, at least one. */
  private static double nodeBurst(RateLimits limits) {
    return Math.max(1.0, limits.perNodePatchesPerSecond());
  }

  /** An immutable token bucket: {@code tokens} as of {@code at}. */
  private record Bucket(double perSecond, double capacity, double tokens, long at) {
    static Bucket full(double perSecond, double capacity, long now) {
      return new Bucket(perSecond, capacity, capacity, now);
    }

    Bucket refilled(long now) {
      if (now <= at) {
        return this;
      }
      double earned = (now - at) / 1e9 * perSecond;
      return new Bucket(perSecond, capacity, Math.min(capacity, tokens + earned), now);
    }

    Bucket take(double n) {
      return new Bucket(perSecond, capacity, tokens - n, at);
    }

    Bucket resized(double newPerSecond, double newCapacity, long now) {
      Bucket current = refilled(now);
      return new Bucket(newPerSecond, newCapacity, Math.min(newCapacity, current.tokens), now);
    }

    /** Float arithmetic may leave 0.999999 after exactly one token's worth of time. */
    boolean has(double n) {
      return tokens + 1e-9 >= n;
    }

    long nanosUntil(double n) {
      if (perSecond <= 0) {
        return Long.MAX_VALUE; // a replica with no share (no partitions) has nothing to send
      }
      if (has(n)) {
        return 0;
      }
      return (long) Math.ceil((n - tokens) / perSecond * 1e9);
    }
  }
}
