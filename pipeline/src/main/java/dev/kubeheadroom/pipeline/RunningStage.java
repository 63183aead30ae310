package dev.kubeheadroom.pipeline;

import java.util.List;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/** A started stage: its probes, and what to close in reverse order of start. */
final class RunningStage implements Stage {
  private final String name;
  private final BooleanSupplier ready;
  private final Supplier<Optional<Throwable>> failure;
  private final List<AutoCloseable> parts;
  private volatile boolean closed;

  /** {@code parts} in start order; closed last to first. */
  RunningStage(String name, BooleanSupplier ready, Supplier<Optional<Throwable>> failure,
      List<AutoCloseable> parts) {
    this.name = name;
    this.ready = ready;
    this.failure = failure;
    this.parts = List.copyOf(parts);
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public boolean ready() {
    return !closed && ready.getAsBoolean();
  }

  @Override
  public Optional<Throwable> failure() {
    // a stage we closed reports why it stopped ("closed"): that is not a failure
    return closed ? Optional.empty() : failure.get();
  }

  @Override
  public void close() {
    closed = true;
    RuntimeException first = null;
    for (int i = parts.size() - 1; i >= 0; i--) {
      try {
        parts.get(i).close();
      } catch (Exception e) {
        if (first == null) {
          first = new IllegalStateException("closing " + name + ": " + e, e);
        }
      }
    }
    if (first != null) {
      throw first;
    }
  }
}
