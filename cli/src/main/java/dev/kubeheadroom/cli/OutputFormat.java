package dev.kubeheadroom.cli;

/**
 * How a command prints its result ({@code -o/--output}): a table (text) for people, or JSON or
 * YAML of the same view for tools. The default is {@code table}, as kubectl's, except where
 * docs/design/cli-contract.md fixes another ({@link #defaultFor}).
 */
public enum OutputFormat {
  json,
  yaml,
  table;

  /** The option's help, shared by every command that has one. */
  static final String DESCRIPTION = "Output format: table (default), json or yaml.";

  /**
   * The default of {@code simulate} and {@code demo}, which the CLI contract fixes: JSON when stdout
   * is not a terminal (a pipe or a file), a table when a person is watching.
   */
  public static OutputFormat defaultFor(OutputFormat chosen) {
    if (chosen != null) {
      return chosen;
    }
    return System.console() == null ? json : table;
  }

  /** The kubectl-like default: a table unless another format was asked for. */
  static OutputFormat orTable(OutputFormat chosen) {
    return chosen == null ? table : chosen;
  }
}
