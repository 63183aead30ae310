package dev.kubeheadroom.cli.preflight;

/** The preflight cannot run at all (API server unreachable, namespaces unreadable); one line. */
public final class PreflightException extends RuntimeException {
  public PreflightException(String message) {
    super(message, null, false, false);
  }
}
