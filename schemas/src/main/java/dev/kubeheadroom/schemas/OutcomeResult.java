package dev.kubeheadroom.schemas;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/**
 * What happened to one resize try (runbook "Resize outcomes").
 *
 * <p>{@code rejected} was added to schema version 1 (additive: the writer is the actuator, the
 * reader the topology, released together). A reader older than a value fails that record as
 * unreadable (a {@link SchemaException}), so roll the topology out before, or with, the actuator.
 */
public enum OutcomeResult {
  APPLIED("applied"),
  DRY_RUN("dry-run"),
  DEFERRED("deferred"),
  INFEASIBLE("infeasible"),
  QUOTA_DENIED("quota-denied"),
  CONFLICT("conflict"),
  GONE("gone"),
  ERROR("error"),
  /** The actuator refused the decision itself (namespace, age, target below request): no request sent. */
  REJECTED("rejected");

  private final String wireName;

  OutcomeResult(String wireName) {
    this.wireName = wireName;
  }

  @JsonValue
  public String wireName() {
    return wireName;
  }

  @JsonCreator
  public static OutcomeResult fromWireName(String name) {
    for (OutcomeResult r : values()) {
      if (r.wireName.equals(name)) {
        return r;
      }
    }
    throw new IllegalArgumentException("unknown outcome result: " + name);
  }
}
