package dev.kubeheadroom.cli;

/** A mistake in the user's input: reported as one line, exit code 2, never a stack trace. */
public final class UserError extends RuntimeException {
  public static final int EXIT_CODE = ExitCodes.USAGE;

  public UserError(String message) {
    super(message, null, false, false);
  }
}
