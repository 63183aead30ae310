package dev.kubeheadroom.schemas;

import com.fasterxml.jackson.annotation.JsonIgnore;
import java.time.Instant;

/**
 * The result of one resize try, published by the actuator back into the node's partition.
 *
 * @param node the pod's node (the record key)
 * @param podUid the pod the decision named
 * @param namespace its namespace
 * @param name its name
 * @param result what happened
 * @param targetMilli the pod target the try carried
 * @param at when the actuator saw the answer
 * @param message the API server's or kubelet's words, if any
 */
public record ResizeOutcome(
    String node, String podUid, String namespace, String name, OutcomeResult result,
    long targetMilli, Instant at, String message)
    implements NodeEvent {

  public ResizeOutcome {
    Require.text(node, "node");
    Require.text(podUid, "podUid");
    if (result == null) {
      throw new IllegalArgumentException("result is required");
    }
    if (at == null) {
      throw new IllegalArgumentException("at is required");
    }
    message = message == null ? "" : message;
  }

  /** Outcomes come from the actuator, never from an ingest leader: never fenced. */
  @Override
  @JsonIgnore
  public long epoch() {
    return 0;
  }

  @Override
  public ResizeOutcome withEpoch(long epoch) {
    return this;
  }
}
