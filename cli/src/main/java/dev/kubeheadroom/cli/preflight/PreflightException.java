package dev.kubeheadroom.cli.preflight;

/** The preflight cannot run at all (API server unreachable, namespaces unreadable); one line. */
public final class PreflightException extends RuntimeException {
  private final boolean unreachable;

  public PreflightException(String message) {
    this(message, false);
  }

  private PreflightException(String message, boolean unreachable) {
    super(message, null, false, false);
    this.unreachable = unreachable;
  }

  /** The API server did not answer: worth a retry, unlike a refusal. */
  public static PreflightException unreachable(String message) {
    return new PreflightException(message, true);
  }

  public boolean isUnreachable() {
    return unreachable;
  }
}
