package dev.kubeheadroom.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.Callable;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.TimeoutException;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** What a user sees when a command fails: one line for what they can fix, a trace for a bug. */
class UserErrorsTest {
  @Command(name = "probe")
  static final class Failing implements Callable<Integer> {
    private final Exception failure;

    Failing(Exception failure) {
      this.failure = failure;
    }

    @Override
    public Integer call() throws Exception {
      throw failure;
    }
  }

  private record Run(int code, String err) {}

  private static Run run(Exception failure) {
    StringWriter err = new StringWriter();
    CommandLine cli = new CommandLine(new Failing(failure));
    cli.setErr(new PrintWriter(err));
    cli.setExecutionExceptionHandler(new UserErrors());
    return new Run(cli.execute(), err.toString());
  }

  @Test
  void aUserErrorIsOneLineAndExitCode2() {
    Run r = run(new UserError("--at 2099-01-01T00:00:00Z is in the future"));
    assertThat(r.code()).isEqualTo(UserError.EXIT_CODE);
    assertThat(r.err()).isEqualTo("headroom probe: --at 2099-01-01T00:00:00Z is in the future" + System.lineSeparator());
  }

  @Test
  void anUnreachableKafkaIsOneLineNamingTheKnobNotATraceAndExitCode4() {
    Run r = run(new KafkaException("fetching metadata failed",
        new TimeoutException("Timeout expired while fetching topic metadata")));
    // Not a usage error: the same command may work once the broker is back (ExitCodes).
    assertThat(r.code()).isEqualTo(ExitCodes.UNAVAILABLE);
    assertThat(r.err().lines()).singleElement().asString()
        .startsWith("headroom probe: Kafka did not answer (Timeout expired while fetching topic metadata)")
        .contains("--bootstrap-servers");
  }

  @Test
  void anythingElseIsABugReportWithItsTrace() {
    Run r = run(new IllegalStateException("boom"));
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err()).startsWith("headroom probe: internal error: java.lang.IllegalStateException: boom")
        .contains("\tat ");
  }
}
