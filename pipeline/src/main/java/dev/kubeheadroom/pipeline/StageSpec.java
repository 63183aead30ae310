package dev.kubeheadroom.pipeline;

/**
 * How to start one stage: its settings, resolved once by the launcher (the CLI, the demo, a
 * test). Starting twice gives two independent instances, so {@link Pipeline} restarts a failed
 * stage by starting its spec again.
 */
public interface StageSpec {
  /** The name of the stages it starts ({@link Stage#name()}). */
  String name();

  /** Starts an instance; it reports to {@code context}'s registry. */
  Stage start(StageContext context);
}
