package dev.kubeheadroom.cli;

/** How a command prints its result: the contract's JSON, or a table for people. */
public enum OutputFormat {
  json,
  table;

  /** JSON when stdout is not a terminal (a pipe or a file), a table when a person is watching. */
  static OutputFormat defaultFor(OutputFormat chosen) {
    if (chosen != null) {
      return chosen;
    }
    return System.console() == null ? json : table;
  }
}
