package dev.kubeheadroom.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;

/**
 * A process builds in full only the subcommands its arguments name ({@link Subcommands}); what it
 * prints must not show it: the usage, a subcommand's help, a typo's error and the completion
 * script are the full command line's, byte for byte.
 */
class SubcommandsTest {
  static List<List<String>> arguments() {
    return List.of(List.of("--help"), List.of("--version"), List.of("help"), List.of("help", "simulate"),
        List.of("simulate", "--help"), List.of("audit", "--help"), List.of("simulat"),
        List.of("policy", "--no-such-flag"), List.of("completion", "bash"));
  }

  @ParameterizedTest(name = "headroom {0}")
  @MethodSource("arguments")
  void printsWhatTheFullCommandLinePrints(List<String> args) {
    String[] argv = args.toArray(String[]::new);
    assertThat(run(Subcommands.namedIn(argv), argv)).isEqualTo(run(Subcommands.ALL, argv));
  }

  @ParameterizedTest(name = "headroom {0}")
  @MethodSource("arguments")
  void buildsOnlyTheNamedSubcommands(List<String> args) {
    CommandLine cli = commandLine(Subcommands.namedIn(args.toArray(String[]::new)));
    boolean completion = args.contains("completion");
    cli.getSubcommands().forEach((name, sub) -> assertThat(sub.getCommand() != null)
        .as("%s built in full", name).isEqualTo(completion || args.contains(name)));
  }

  private static String run(Subcommands built, String... args) {
    CommandLine cli = commandLine(built);
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cli.setOut(new PrintWriter(out));
    cli.setErr(new PrintWriter(err));
    int code = cli.execute(args);
    return "exit " + code + "\n" + out + "\n--- stderr\n" + err;
  }

  private static CommandLine commandLine(Subcommands built) {
    return Main.commandLine(new ByteArrayInputStream(new byte[0]), LocalKafka.NONE, built);
  }
}
