package dev.kubeheadroom.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code headroom} launcher: one subcommand per stage or tool. */
@Command(
    name = "headroom",
    mixinStandardHelpOptions = true,
    versionProvider = Main.Version.class,
    description = "Sets each container's CPU limit from how booked its node is.",
    subcommands = {CommandLine.HelpCommand.class})
public final class Main implements Runnable {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  public static void main(String[] args) {
    System.exit(commandLine().execute(args));
  }

  /** The configured command line; tests run subcommands through this too. */
  public static CommandLine commandLine() {
    CommandLine cli = new CommandLine(new Main());
    cli.setExecutionExceptionHandler(new UserErrors());
    return cli;
  }

  @Override
  public void run() {
    spec.commandLine().usage(System.out);
  }

  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      String v = Main.class.getPackage().getImplementationVersion();
      return new String[] {"headroom " + (v == null ? "dev" : v)};
    }
  }
}
