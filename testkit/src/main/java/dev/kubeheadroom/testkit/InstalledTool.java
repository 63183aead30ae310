package dev.kubeheadroom.testkit;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/** Where a test's external tool is: the path in {@code env} if it is executable, else the first candidate that is. */
final class InstalledTool {
  private InstalledTool() {}

  static Optional<Path> find(String env, List<Path> candidates) {
    String named = System.getenv(env);
    if (named != null && Files.isExecutable(Path.of(named))) {
      return Optional.of(Path.of(named));
    }
    return candidates.stream().filter(Files::isExecutable).findFirst();
  }
}
