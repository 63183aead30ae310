package dev.kubeheadroom.cli;

import picocli.CommandLine;

/**
 * Turns exceptions escaping a subcommand into one line on stderr. A {@link UserError} is the
 * user's mistake (exit 2, no stack trace); anything else is ours (exit 1, stack trace kept, since
 * that is a bug report).
 */
final class UserErrors implements CommandLine.IExecutionExceptionHandler {
  @Override
  public int handleExecutionException(
      Exception ex, CommandLine cmd, CommandLine.ParseResult parseResult) {
    if (ex instanceof UserError userError) {
      cmd.getErr().println("headroom " + cmd.getCommandName() + ": " + userError.getMessage());
      cmd.getErr().flush();
      return UserError.EXIT_CODE;
    }
    cmd.getErr().println("headroom " + cmd.getCommandName() + ": internal error: " + ex);
    ex.printStackTrace(cmd.getErr());
    cmd.getErr().flush();
    return 1;
  }
}
