package dev.kubeheadroom.launcher;

import dev.kubeheadroom.cli.Subcommands;

/**
 * The run the build records in {@code target/headroom.jsa}, the class-data archive (AppCDS) that
 * {@code ./headroom} starts the JVM with: the usage (printed from the jar, and by picocli), the
 * help of the commands people run by hand, and {@code simulate} of small logs (the arguments: one
 * with a HeadroomConfig, whose binding is a path of its own) in both output forms, through the
 * command line a process builds. What it prints is the build's to discard.
 */
final class ClassDataTraining {
  private ClassDataTraining() {}

  public static void main(String[] args) {
    PrintedUsage.print(new String[] {"--help"});
    run("--help");
    run("explain", "--help");
    run("audit", "--help");
    for (String log : args) {
      run("simulate", "--watch-log", log, "-o", "json");
      run("simulate", "--watch-log", log, "-o", "table");
    }
  }

  private static void run(String... args) {
    Launcher.commandLine(System.in, Subcommands.namedIn(args)).execute(args);
  }
}
