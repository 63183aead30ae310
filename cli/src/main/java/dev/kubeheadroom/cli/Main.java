package dev.kubeheadroom.cli;

import dev.kubeheadroom.replay.Simulation;
import java.io.InputStream;
import java.util.Arrays;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The operator's {@code headroom} command line (the image's entrypoint): one subcommand per stage
 * or tool that production needs. {@code ./headroom} adds {@code demo} to it ({@code Launcher}).
 */
@Command(
    name = "headroom",
    mixinStandardHelpOptions = true,
    versionProvider = Main.Version.class,
    description = "Sets each container's CPU limit from how booked its node is.",
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
      "0:done; nothing blocks",
      "1:internal error (a bug, or a stage that failed): the message is a bug report",
      "2:usage error or bad input (unknown flag, bad value, unreadable file)",
      "3:blocked: a preflight check failed, or audit --verify found a decision that does not re-derive",
      "4:unavailable: Kafka, the API server or Prometheus did not answer"})
public final class Main implements Runnable {
  /** The subcommands, in the order the usage lists them (added in code: {@link Subcommands}). */
  static final List<Class<?>> SUBCOMMANDS = List.of(CommandLine.HelpCommand.class,
      PolicyCommand.class, SimulateCommand.class, RunCommand.class, IngestCommand.class,
      TopologyCommand.class, ActuatorCommand.class, WebhookCommand.class, AuditCommand.class,
      ExplainCommand.class, PreflightCommand.class, CompletionCommand.class);

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  public static void main(String[] args) {
    prepareAhead(args);
    System.exit(commandLine(System.in, LocalKafka.NONE, Subcommands.namedIn(args)).execute(args));
  }

  /**
   * Starts on other threads what the command {@code args} name will need first, while the
   * process parses them (a process's entry point calls it; tooling/launcher/DESIGN.md, "Start-up").
   */
  public static void prepareAhead(String... args) {
    List<String> words = Arrays.asList(args);
    if (words.contains("simulate") && !words.contains("--help") && !words.contains("-h")) {
      Simulation.prepareAhead();
    }
  }

  /** The configured command line; tests run subcommands through this too. */
  public static CommandLine commandLine() {
    return commandLine(System.in);
  }

  /**
   * The operator's command line with {@code stdin} as the standard input of the subcommands that
   * read it, and no local broker (a command needs {@code --kafka-bootstrap-servers}).
   */
  public static CommandLine commandLine(InputStream stdin) {
    return commandLine(stdin, LocalKafka.NONE);
  }

  /** As above, a command given no {@code --kafka-bootstrap-servers} using {@code local}'s broker. */
  public static CommandLine commandLine(InputStream stdin, LocalKafka local) {
    return commandLine(stdin, local, Subcommands.ALL);
  }

  /** As above, building in full only the subcommands {@code built} says (a process: those it runs). */
  public static CommandLine commandLine(InputStream stdin, LocalKafka local, Subcommands built) {
    CommandLine.IFactory defaults = CommandLine.defaultFactory();
    CommandLine.IFactory factory =
        new CommandLine.IFactory() {
          @Override
          public <K> K create(Class<K> type) throws Exception {
            if (type == PolicyCommand.class) {
              return type.cast(new PolicyCommand(stdin));
            }
            if (type == SimulateCommand.class) {
              return type.cast(new SimulateCommand(stdin));
            }
            if (type == KafkaOptions.class) {
              return type.cast(new KafkaOptions(local));
            }
            return defaults.create(type);
          }
        };
    CommandLine cli = new CommandLine(new Main(), factory);
    SUBCOMMANDS.forEach(type -> built.add(cli, type));
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
