package dev.kubeheadroom.launcher;

import dev.kubeheadroom.cli.UserError;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * The demo's directory: the embedded broker's data (the event log {@code audit} and {@code
 * explain} read afterwards, with {@code --data-dir} on it) and the pipeline's log file. It outlives
 * the run; it must start empty, or the broker would replay an earlier run's topics into this one.
 */
final class DemoDirectory {
  private DemoDirectory() {}

  /** {@code given} (created if absent, refused unless empty), or a new directory under the temp directory. */
  static Path create(Path given) {
    try {
      if (given == null) {
        return Files.createTempDirectory("headroom-demo-");
      }
      if (Files.isDirectory(given)) {
        try (Stream<Path> entries = Files.list(given)) {
          if (entries.findAny().isPresent()) {
            throw new UserError("--dir " + given + " is not empty (the demo starts from an empty event log)");
          }
        }
      }
      return Files.createDirectories(given).toAbsolutePath();
    } catch (IOException e) {
      throw new UserError("--dir " + given + ": cannot create (" + e.getMessage() + ")");
    }
  }
}
