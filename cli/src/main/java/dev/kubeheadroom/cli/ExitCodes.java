package dev.kubeheadroom.cli;

/**
 * The exit codes of every {@code headroom} command, one meaning each, so a script can tell "the
 * cluster is not ready" from "you typed it wrong" from "Headroom has a bug" (docs/runbook.md,
 * "Exit codes"). The stage commands end with {@link #INTERNAL} when a stage fails.
 */
public final class ExitCodes {
  /** Done; nothing blocks. */
  public static final int OK = 0;
  /** A bug or a failed stage: the message (and a stack trace) is a bug report. */
  public static final int INTERNAL = 1;
  /** A usage error or bad input: unknown flag, bad value, unreadable file (picocli's own code). */
  public static final int USAGE = 2;
  /** The command ran and found what blocks: a failed preflight check, a decision that does not re-derive. */
  public static final int BLOCKED = 3;
  /** Kafka, the API server or Prometheus did not answer: retry, or check the address and the network. */
  public static final int UNAVAILABLE = 4;

  private ExitCodes() {}
}
