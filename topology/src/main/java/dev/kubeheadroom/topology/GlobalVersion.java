package dev.kubeheadroom.topology;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Bumped whenever a global table (namespaces, config) really changes. Global tables do not wake
 * stream tasks, so each task's punctuator compares this with the version it last saw and
 * re-evaluates all its nodes when it moved. One per built topology (never static).
 */
final class GlobalVersion {
  private final AtomicLong version = new AtomicLong();

  long get() {
    return version.get();
  }

  void bump() {
    version.incrementAndGet();
  }
}
