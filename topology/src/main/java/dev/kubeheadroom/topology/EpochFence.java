package dev.kubeheadroom.topology;

import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Split-brain fencing (design §8.6): per node, the highest ingest epoch seen. An event stamped
 * with a lower epoch comes from a leader that has since been superseded (its record was queued
 * before it lost the Lease and landed after the new leader's re-publish): it is dropped, so the
 * new leader's state stays in force. An event without an epoch (0: the actuator's outcomes, logs
 * written before epochs, simulate) is never dropped and never raises the fence.
 *
 * <p>Per node rather than per partition: a node's events are on one partition of each topic
 * whatever the partition count, so the rule reads the same in a replay as live. Decided from
 * records only. The entry outlives the node's removal, so a stale record cannot bring a removed
 * node back.
 */
final class EpochFence {
  private final KeyValueStore<String, Long> store;
  private final Map<String, Long> cache = new HashMap<>();

  EpochFence(KeyValueStore<String, Long> store) {
    this.store = store;
  }

  /**
   * Whether an event of {@code node} stamped {@code epoch} is admitted; a higher epoch than any
   * seen raises the node's fence (written through to the store).
   */
  boolean admits(String node, long epoch) {
    if (epoch <= 0) {
      return true;
    }
    long fence = fence(node);
    if (epoch < fence) {
      return false;
    }
    if (epoch > fence) {
      store.put(node, epoch);
      cache.put(node, epoch);
    }
    return true;
  }

  /** The highest epoch seen for {@code node}, 0 when none. */
  long fence(String node) {
    Long known = cache.get(node);
    if (known == null) {
      Long stored = store.get(node);
      known = stored == null ? 0L : stored;
      cache.put(node, known);
    }
    return known;
  }
}
