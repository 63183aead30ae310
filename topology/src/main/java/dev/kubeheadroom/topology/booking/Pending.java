package dev.kubeheadroom.topology.booking;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;

/**
 * A target Headroom emitted for a pod that no snapshot has confirmed yet. While it stands, the
 * policy sees these limits as the pod's current ones, so an in-flight patch is never sent twice.
 *
 * @param targetMilli the pod target the decision carried
 * @param containers container name → emitted limit
 * @param at when the decision was emitted
 * @param dryRun emitted under dry-run (never applied; ignored once enforcement starts)
 */
public record Pending(long targetMilli, Map<String, Long> containers, Instant at, boolean dryRun) {
  public Pending {
    containers = Map.copyOf(containers);
    Objects.requireNonNull(at, "at");
  }
}
