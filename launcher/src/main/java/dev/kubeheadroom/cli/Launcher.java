package dev.kubeheadroom.cli;

import java.io.InputStream;
import picocli.CommandLine;

/**
 * What {@code ./headroom} runs: the operator's command line ({@link Main}) plus {@code demo}, whose
 * API server double and demo pipeline the operator image does not carry.
 */
public final class Launcher {
  private Launcher() {}

  public static void main(String[] args) {
    System.exit(commandLine(System.in).execute(args));
  }

  /** The full command line; tests run subcommands through this too. */
  public static CommandLine commandLine() {
    return commandLine(System.in);
  }

  /** The full command line with {@code stdin} as the standard input of the subcommands that read it. */
  public static CommandLine commandLine(InputStream stdin) {
    return Main.commandLine(stdin).addSubcommand(new DemoCommand());
  }
}
