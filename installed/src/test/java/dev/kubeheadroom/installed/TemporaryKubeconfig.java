package dev.kubeheadroom.installed;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** TODO(rbac): replaced by ApiServerDouble.writeKubeconfig. */
final class TemporaryKubeconfig {
  private TemporaryKubeconfig() {}

  static void write(String url, String namespace, Path file) {
    String yaml = """
        apiVersion: v1
        kind: Config
        clusters:
        - name: double
          cluster: {server: "%s"}
        users:
        - name: sa
          user: {}
        contexts:
        - name: sa
          context: {cluster: double, user: sa, namespace: %s}
        current-context: sa
        """.formatted(url, namespace);
    try {
      Files.writeString(file, yaml);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
