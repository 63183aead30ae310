package dev.kubeheadroom.launcher;

import dev.kubeheadroom.cli.Main;
import dev.kubeheadroom.cli.Subcommands;
import java.io.InputStream;
import picocli.CommandLine;

/**
 * What {@code ./headroom} runs: the operator's command line ({@link Main}) with an embedded broker
 * for commands given no Kafka ({@link EmbeddedBroker}), plus {@code demo}: the broker, the API
 * server double and the demo pipeline, none of which the operator image carries.
 */
public final class Launcher {
  private Launcher() {}

  public static void main(String[] args) {
    if (PrintedUsage.print(args)) {
      return; // the usage the build rendered, without building the command line
    }
    Main.prepareAhead(args);
    System.exit(commandLine(System.in, Subcommands.namedIn(args)).execute(args));
  }

  /** The full command line; tests run subcommands through this too. */
  public static CommandLine commandLine() {
    return commandLine(System.in);
  }

  /** The full command line with {@code stdin} as the standard input of the subcommands that read it. */
  public static CommandLine commandLine(InputStream stdin) {
    return commandLine(stdin, Subcommands.ALL);
  }

  /** As above, building in full only the subcommands {@code built} says. */
  static CommandLine commandLine(InputStream stdin, Subcommands built) {
    CommandLine cli = Main.commandLine(stdin, new EmbeddedBroker(), built);
    built.add(cli, DemoCommand.class);
    return cli;
  }
}
