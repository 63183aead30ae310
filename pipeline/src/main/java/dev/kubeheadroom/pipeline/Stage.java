package dev.kubeheadroom.pipeline;

import java.util.Optional;

/**
 * One running stage of the pipeline (ingest, topology, actuator, webhook), as the composition
 * root sees it. Started by a {@link StageSpec}; {@link Pipeline} watches and closes it.
 */
public interface Stage extends AutoCloseable {
  /** {@code ingest}, {@code topology}, {@code actuator} or {@code webhook}: its readiness check's name. */
  String name();

  /** For {@code /readyz}: the stage does its work now. */
  boolean ready();

  /** What stopped the stage by itself, if it did; empty once it was closed. */
  Optional<Throwable> failure();

  /** Stops the stage and releases what it holds; the stage may be started again afterwards. */
  @Override
  void close();
}
