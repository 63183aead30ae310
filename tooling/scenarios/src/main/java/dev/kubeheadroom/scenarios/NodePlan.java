package dev.kubeheadroom.scenarios;

/** A node of a scenario: allocatable CPU and memory (capacity = allocatable here). */
record NodePlan(String name, long cpuMilli, long memoryMib) {
  NodePlan {
    if (cpuMilli <= 0 || memoryMib <= 0) {
      throw new IllegalArgumentException("node " + name + ": cpu and memory must be positive");
    }
  }
}
