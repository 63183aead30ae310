package dev.kubeheadroom.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;

/**
 * Every command of {@code ./headroom} (the launcher: the operator's commands and {@code demo})
 * has a clean {@code --help}: no picocli warning (an unescaped {@code %} in a description is a
 * format string to picocli), no stack trace, no line over 100 columns, and a description that is
 * whole sentences.
 */
class HelpTextTest {
  private static final int MAX_COLUMNS = 100;

  static Stream<List<String>> commands() {
    List<List<String>> paths = new ArrayList<>();
    collect(Launcher.commandLine(), new ArrayList<>(), paths);
    return paths.stream();
  }

  private static void collect(CommandLine command, List<String> path, List<List<String>> into) {
    into.add(List.copyOf(path));
    command.getSubcommands().forEach((name, sub) -> {
      if (sub.getCommandName().equals(name) && !name.equals("help")) { // aliases once
        List<String> next = new ArrayList<>(path);
        next.add(name);
        collect(sub, next, into);
      }
    });
  }

  @ParameterizedTest(name = "headroom {0} --help")
  @MethodSource("commands")
  void helpIsCleanAndFitsATerminal(List<String> path) {
    List<String> args = new ArrayList<>(path);
    args.add("--help");
    PrintStream stderr = System.err;
    ByteArrayOutputStream tracer = new ByteArrayOutputStream();
    CliRun run;
    System.setErr(new PrintStream(tracer, true, StandardCharsets.UTF_8)); // picocli's own warnings
    try {
      run = CliRun.run(args.toArray(String[]::new));
    } finally {
      System.setErr(stderr);
    }
    String everything = run.stdout() + run.stderr() + tracer.toString(StandardCharsets.UTF_8);

    assertThat(run.exitCode()).isZero();
    assertThat(run.stdout()).contains("Usage: ");
    assertThat(everything).doesNotContain("WARN").doesNotContain("Exception").doesNotContain("\tat ");
    assertThat(run.stdout().lines()).allSatisfy(line -> assertThat(line.length())
        .as("line over %d columns: %s", MAX_COLUMNS, line).isLessThanOrEqualTo(MAX_COLUMNS));
    CommandLine command = Launcher.commandLine();
    for (String name : path) {
      command = command.getSubcommands().get(name);
    }
    String description = String.join(" ", command.getCommandSpec().usageMessage().description()).strip();
    assertThat(description).as("description of headroom %s", String.join(" ", path))
        .isNotEmpty().matches("(?s)[A-Z`'\"(].*[.:)]");
  }
}
