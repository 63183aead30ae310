package dev.kubeheadroom.scenarios;

/**
 * A pod of a scenario before placement. Times are milliseconds from the scenario start:
 * created (ADDED, unbound) ≤ bind (MODIFIED with {@code spec.nodeName}) < end (DELETED, after a
 * MODIFIED to the end phase when that is Succeeded or Failed).
 *
 * @param endPhase Running (deleted while running), Succeeded or Failed
 */
record PodPlan(String name, boolean managed, String ownerKind, long cpuMilli, long memoryMib,
    long createdMs, long bindMs, long endMs, String endPhase) {
  static final String REPLICA_SET = "ReplicaSet";
  static final String JOB = "Job";

  PodPlan {
    if (cpuMilli <= 0 || memoryMib <= 0) {
      throw new IllegalArgumentException("pod " + name + ": requests must be positive");
    }
    if (createdMs < 0 || bindMs < createdMs || endMs <= bindMs) {
      throw new IllegalArgumentException("pod " + name + ": need 0 <= created <= bind < end, got "
          + createdMs + ", " + bindMs + ", " + endMs);
    }
  }

  /** The controller's name: the pod name without its index suffix stays unique enough here. */
  String ownerName() {
    return name + (JOB.equals(ownerKind) ? "-job" : "-rs");
  }
}
