package dev.kubeheadroom.scenarios;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The watch log of the openb trace on 30 nodes ({@code TraceScenario.Options.defaults(30)}), built
 * once per test JVM: several test classes read every line of it, and building it is most of
 * their cost.
 */
final class TraceLog30 {
  private static List<String> lines;

  private TraceLog30() {}

  /** The log's lines; the trace must be available ({@link TraceScenario#available}). */
  static synchronized List<String> lines() {
    if (lines == null) {
      try {
        Path log = Files.createTempFile("headroom-trace30-", ".jsonl");
        try {
          TraceScenario.build(TraceScenarioTest.TRACE, TraceScenario.Options.defaults(30)).write(log);
          lines = List.copyOf(Files.readAllLines(log));
        } finally {
          Files.deleteIfExists(log);
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return lines;
  }
}
