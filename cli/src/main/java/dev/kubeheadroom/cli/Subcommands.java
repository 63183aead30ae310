package dev.kubeheadroom.cli;

import java.util.Arrays;
import java.util.Set;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;

/**
 * Which subcommands a command line builds in full. Picocli builds a subcommand by reflecting on
 * its options and creating its objects (mixins, their defaults, the loggers their classes hold);
 * for every subcommand, that is most of a short command's start-up and loads Kafka, fabric8 and
 * Logback for {@code --help}. A process builds only the subcommands its arguments name; every
 * other one is a stub with the name and description the usage lists.
 */
public sealed interface Subcommands {
  /** Every subcommand in full: what tests and anything walking the tree get. */
  Subcommands ALL = new All();

  /** The subcommands named in {@code args} in full; all of them for {@code completion}, which prints the tree. */
  static Subcommands namedIn(String... args) {
    Set<String> words = Set.copyOf(Arrays.asList(args));
    return words.contains("completion") ? ALL : new NamedIn(words);
  }

  /** Whether the subcommand this annotation declares is built in full. */
  boolean builds(Command command);

  /** Adds {@code type} to {@code parent}: in full (through the parent's factory) or as its stub. */
  default CommandLine add(CommandLine parent, Class<?> type) {
    Command command = type.getAnnotation(Command.class);
    if (builds(command)) {
      return parent.addSubcommand(type);
    }
    CommandSpec stub = CommandSpec.create().name(command.name()).aliases(command.aliases());
    stub.usageMessage().description(command.description()).header(command.header()).hidden(command.hidden());
    return parent.addSubcommand(new CommandLine(stub));
  }

  /** Every subcommand in full. */
  record All() implements Subcommands {
    @Override
    public boolean builds(Command command) {
      return true;
    }
  }

  /** The subcommands whose name or alias is one of {@code words}. */
  record NamedIn(Set<String> words) implements Subcommands {
    @Override
    public boolean builds(Command command) {
      return words.contains(command.name())
          || Arrays.stream(command.aliases()).anyMatch(words::contains);
    }
  }
}
