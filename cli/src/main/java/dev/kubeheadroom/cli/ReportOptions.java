package dev.kubeheadroom.cli;

import java.io.PrintWriter;
import picocli.CommandLine.Option;

/** How a replaying report ({@code audit}, {@code explain}) prints: its format, and its progress on stderr. */
final class ReportOptions {
  @Option(names = {"-o", "--output"}, paramLabel = "table|json|yaml", description = OutputFormat.DESCRIPTION,
      completionCandidates = OutputFormat.Text.class)
  OutputFormat output;

  @Option(names = "--progress", description = Progress.DESCRIPTION)
  boolean progress;

  OutputFormat format() {
    return OutputFormat.orTable(output);
  }

  /** The progress of {@code command}'s replay, shown on {@code err} when asked or on a terminal. */
  Progress progress(PrintWriter err, String command) {
    return Progress.of(err, command, progress);
  }
}
