package dev.kubeheadroom.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** The harnesses' scratch directories. */
final class TempDirs {
  private TempDirs() {}

  /** Deletes {@code dir} and everything in it; a temp dir left behind is harmless. */
  static void deleteQuietly(Path dir) {
    try (Stream<Path> walk = Files.walk(dir)) {
      walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException | RuntimeException ignored) {
      // best effort: the OS cleans its temp directory eventually
    }
  }
}
