package dev.kubeheadroom.ops;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.BooleanSupplier;

/**
 * Named readiness checks, one or more per stage ({@code /readyz}). Stages add their check when
 * they start and may add it after the server is up. With no check at all the process is ready.
 */
public final class Readiness {
  private final Map<String, BooleanSupplier> checks = new LinkedHashMap<>();

  /** Adds (or replaces) the check called {@code name}; returns this. */
  public synchronized Readiness add(String name, BooleanSupplier check) {
    checks.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(check, "check"));
    return this;
  }

  public synchronized void remove(String name) {
    checks.remove(name);
  }

  /** Runs every check; a check that throws counts as not ready, with its message. */
  public Status check() {
    Map<String, BooleanSupplier> snapshot;
    synchronized (this) {
      snapshot = new LinkedHashMap<>(checks);
    }
    List<String> notReady = new ArrayList<>();
    snapshot.forEach(
        (name, check) -> {
          try {
            if (!check.getAsBoolean()) {
              notReady.add(name);
            }
          } catch (RuntimeException e) {
            notReady.add(name + " (" + e.getClass().getSimpleName() + ": " + e.getMessage() + ")");
          }
        });
    return new Status(List.copyOf(notReady));
  }

  /** The outcome of one {@link #check()}. */
  public record Status(List<String> notReady) {
    public boolean ready() {
      return notReady.isEmpty();
    }

    /** One line: {@code ok}, or {@code not ready: a, b}. */
    public String message() {
      return ready() ? "ok" : "not ready: " + String.join(", ", notReady);
    }
  }
}
