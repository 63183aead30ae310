package dev.kubeheadroom.cli;

import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.TimeoutException;
import picocli.CommandLine;

/**
 * Turns exceptions escaping a subcommand into one line on stderr. A {@link UserError} is the
 * user's mistake ({@link ExitCodes#USAGE}, no stack trace); a Kafka client giving up on an
 * unreachable broker is a wrong address or a broker that is down, not a bug
 * ({@link ExitCodes#UNAVAILABLE}, one line); Kafka refusing the login or an operation is the
 * client properties or the ACLs to fix ({@link ExitCodes#USAGE}, one line). Anything else is ours ({@link ExitCodes#INTERNAL},
 * stack trace kept, since that is a bug report).
 */
final class UserErrors implements CommandLine.IExecutionExceptionHandler {
  @Override
  public int handleExecutionException(
      Exception ex, CommandLine cmd, CommandLine.ParseResult parseResult) {
    String line = userMessage(ex);
    if (line != null) {
      cmd.getErr().println("headroom " + cmd.getCommandName() + ": " + line);
      cmd.getErr().flush();
      return ex instanceof UserError || refusedByKafka(ex) != null ? ExitCodes.USAGE : ExitCodes.UNAVAILABLE;
    }
    cmd.getErr().println("headroom " + cmd.getCommandName() + ": internal error: " + ex);
    ex.printStackTrace(cmd.getErr());
    cmd.getErr().flush();
    return ExitCodes.INTERNAL;
  }

  /** The one line for an error the user can act on; null for a bug. */
  static String userMessage(Throwable ex) {
    if (ex instanceof UserError || ex instanceof Unavailable) {
      return ex.getMessage();
    }
    Throwable refused = refusedByKafka(ex);
    if (refused instanceof AuthenticationException) {
      return "Kafka refused the login (" + refused.getMessage() + "); check the SASL/SSL client properties"
          + " (--kafka-client-properties, HEADROOM_KAFKA_SASL_JAAS_CONFIG)";
    }
    if (refused != null) {
      return "Kafka refused this identity: " + refused.getMessage() + "; grant it the ACLs in"
          + " docs/running-beside-kafka.md (section ACLs)";
    }
    for (Throwable t = ex; t != null; t = t.getCause()) {
      if (t instanceof TimeoutException) {
        return "Kafka did not answer (" + t.getMessage() + "); check --bootstrap-servers"
            + " (or HEADROOM_KAFKA_BOOTSTRAP_SERVERS) and that the brokers are reachable";
      }
    }
    return null;
  }

  /** The Kafka authentication or authorization failure in {@code ex}'s cause chain, or null. */
  private static Throwable refusedByKafka(Throwable ex) {
    for (Throwable t = ex; t != null; t = t.getCause()) {
      if (t instanceof AuthorizationException || t instanceof AuthenticationException) {
        return t;
      }
    }
    return null;
  }
}
