package dev.kubeheadroom.kubedouble;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A kubeconfig file (clientcmd {@code v1 Config}) with one cluster, one user holding a bearer
 * token and one current context naming the default namespace: what {@code kubectl} and
 * fabric8's {@code Config.fromKubeconfig} / {@code Config.autoConfigure} read.
 */
final class Kubeconfig {
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
  private static final String NAME = "kube-double";

  private Kubeconfig() {
  }

  static String render(String server, String user, String token, String namespace) {
    ObjectNode root = YAML.createObjectNode();
    root.put("apiVersion", "v1").put("kind", "Config").put("current-context", NAME);
    root.putArray("clusters").addObject().put("name", NAME).putObject("cluster").put("server", server);
    root.putArray("users").addObject().put("name", user).putObject("user").put("token", token);
    root.putArray("contexts").addObject().put("name", NAME).putObject("context")
        .put("cluster", NAME).put("user", user).put("namespace", namespace);
    root.putObject("preferences");
    try {
      return YAML.writeValueAsString(root);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static void write(Path file, String kubeconfig) {
    try {
      if (file.getParent() != null) {
        Files.createDirectories(file.getParent());
      }
      Files.writeString(file, kubeconfig);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write kubeconfig " + file, e);
    }
  }
}
