package dev.kubeheadroom.actuator;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Which pods are in a refusal episode that already has its {@code ResizeRefused} event, so a pod
 * the API server refuses again after each backoff gets one Warning, not one per try. An episode
 * ends when a resize of the pod is applied or the pod is gone. In memory and bounded (least
 * recently refused pods are forgotten first): after a restart, or for a forgotten pod, the next
 * refusal writes one more event, never fewer.
 */
final class RefusalEpisodes {
  static final int MAX_PODS = 10_000;

  private final int maxPods;
  private final Map<String, Boolean> open;

  RefusalEpisodes() {
    this(MAX_PODS);
  }

  RefusalEpisodes(int maxPods) {
    this.maxPods = maxPods;
    this.open = new LinkedHashMap<>(16, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
        return size() > RefusalEpisodes.this.maxPods;
      }
    };
  }

  /** A refusal of the pod: true when it opens an episode (its event is due), false when one is open. */
  synchronized boolean opens(String uid) {
    return open.put(uid, Boolean.TRUE) == null;
  }

  /** The episode is over (applied, gone) or its event was not written (so the next refusal tries again). */
  synchronized void close(String uid) {
    open.remove(uid);
  }
}
