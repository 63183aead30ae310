package dev.kubeheadroom.cli;

/**
 * How a command prints its result ({@code -o/--output}): a table (text) for people, or JSON or
 * YAML of the same view for tools; {@code html}, a page with pictures, only where a command draws
 * one ({@code audit} over a window, {@code simulate}). The default is {@code table}, as kubectl's,
 * except where docs/design/cli-contract.md fixes another ({@link #defaultFor}).
 */
public enum OutputFormat {
  json,
  yaml,
  table,
  html;

  /** What shell completion offers for a command that prints text only (no page). */
  static final class Text implements Iterable<String> {
    @Override
    public java.util.Iterator<String> iterator() {
      return java.util.List.of(json.name(), yaml.name(), table.name()).iterator();
    }
  }

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

  /** {@code chosen}, unless it is {@code html}, which {@code command} does not draw: a user error. */
  public static OutputFormat notHtml(OutputFormat chosen, String command) {
    if (chosen == html) {
      throw new UserError("-o html: " + command + " prints table, json or yaml (audit --from/--to and simulate draw"
          + " a page)");
    }
    return chosen;
  }

  /** The kubectl-like default: a table unless another format was asked for. */
  static OutputFormat orTable(OutputFormat chosen) {
    return chosen == null ? table : chosen;
  }
}
