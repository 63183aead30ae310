package dev.kubeheadroom.schemas;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/** What happened to one resize try (runbook "Resize outcomes"). */
public enum OutcomeResult {
  APPLIED("applied"),
  DRY_RUN("dry-run"),
  DEFERRED("deferred"),
  INFEASIBLE("infeasible"),
  QUOTA_DENIED("quota-denied"),
  CONFLICT("conflict"),
  GONE("gone"),
  ERROR("error");

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

  /** Infeasible and quota-denied put the pod in backoff (design §6.4). */
  public boolean backsOff() {
    return this == INFEASIBLE || this == QUOTA_DENIED;
  }
}
