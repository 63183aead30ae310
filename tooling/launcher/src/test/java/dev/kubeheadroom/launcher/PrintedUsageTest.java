package dev.kubeheadroom.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The usage the build rendered into the jar ({@link PrintedUsage}) is, byte for byte, what
 * picocli prints for the same arguments through the full command line: plain, and in colour as
 * on a terminal. A description changed since the resource was rendered fails here.
 */
class PrintedUsageTest {

  @ParameterizedTest(name = "headroom {0}")
  @ValueSource(strings = {"--help", "-h"})
  void theRenderedUsageIsWhatPicocliPrints(String flag) {
    CliRun run = CliRun.run(flag);

    assertThat(run.exitCode()).isZero();
    assertThat(PrintedUsage.rendered(false)).isEqualTo(run.stdout()).startsWith("Usage: headroom");
  }

  @Test
  void noArgumentsPrintTheSameUsage() {
    PrintStream stdout = System.out;
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    int code;
    System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8)); // Main.run prints there
    try {
      code = Launcher.commandLine().execute();
    } finally {
      System.setOut(stdout);
    }

    assertThat(code).isZero();
    assertThat(PrintedUsage.rendered(false)).isEqualTo(printed.toString(StandardCharsets.UTF_8));
  }

  @Test
  void inColourItIsWhatPicocliPrintsOnATerminal() {
    System.setProperty("picocli.ansi", "true"); // picocli's colours, as on a terminal
    CliRun run;
    try {
      run = CliRun.run("--help");
    } finally {
      System.clearProperty("picocli.ansi");
    }

    assertThat(PrintedUsage.rendered(true)).isEqualTo(run.stdout()).contains("\u001b[");
  }

  @Test
  void onlyTheBareUsageIsAnsweredFromTheJar() {
    assertThat(PrintedUsage.asksForUsage(new String[0])).isTrue();
    assertThat(PrintedUsage.asksForUsage(new String[] {"--help"})).isTrue();
    assertThat(PrintedUsage.asksForUsage(new String[] {"-h"})).isTrue();
    assertThat(PrintedUsage.asksForUsage(new String[] {"simulate", "--help"})).isFalse();
    assertThat(PrintedUsage.asksForUsage(new String[] {"--version"})).isFalse();
    assertThat(PrintedUsage.asksForUsage(new String[] {"--help", "--help"})).isFalse();
  }

  @Test
  void aPicocliPropertyLeavesTheUsageToPicocli() {
    System.setProperty("picocli.usage.width", "120");
    try {
      assertThat(PrintedUsage.print(new String[] {"--help"})).isFalse();
    } finally {
      System.clearProperty("picocli.usage.width");
    }
  }
}
