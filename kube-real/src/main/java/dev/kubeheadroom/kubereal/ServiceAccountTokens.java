package dev.kubeheadroom.kubereal;

import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.authentication.TokenRequest;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * ServiceAccount tokens from a real server's TokenRequest API, and kubeconfigs that use them: how
 * a pod's container authenticates, for processes that stand in for pods ({@link RealControlPlane}
 * and {@link RealNode}'s servers alike).
 */
public final class ServiceAccountTokens {
  private final KubernetesClient admin;
  private final String url;
  private final String caCertData;
  private final Map<String, String> tokens = new ConcurrentHashMap<>();

  /**
   * @param admin a client allowed to create ServiceAccounts and their tokens
   * @param url the server's URL as the kubeconfigs name it
   * @param caCertData the server's CA, base64 PEM
   */
  public ServiceAccountTokens(KubernetesClient admin, String url, String caCertData) {
    this.admin = admin;
    this.url = url;
    this.caCertData = caCertData;
  }

  /**
   * A bearer token for ServiceAccount {@code namespace/name} (created when missing); one per
   * account, valid for an hour.
   */
  public String token(String namespace, String name) {
    return tokens.computeIfAbsent(namespace + "/" + name, key -> {
      if (admin.serviceAccounts().inNamespace(namespace).withName(name).get() == null) {
        admin.serviceAccounts().inNamespace(namespace).resource(new ServiceAccountBuilder()
            .withNewMetadata().withName(name).withNamespace(namespace).endMetadata().build())
            .create();
      }
      TokenRequest issued = admin.serviceAccounts().inNamespace(namespace).withName(name)
          .tokenRequest(new TokenRequestBuilder().withNewSpec()
              .withExpirationSeconds(Duration.ofHours(1).toSeconds()).endSpec().build());
      return issued.getStatus().getToken();
    });
  }

  /** Writes a kubeconfig file that authenticates as ServiceAccount {@code namespace/name}. */
  public Path writeKubeconfig(String namespace, String name, Path file) {
    String yaml = """
        apiVersion: v1
        kind: Config
        clusters:
        - name: real
          cluster:
            server: %s
            certificate-authority-data: %s
        users:
        - name: %s
          user:
            token: %s
        contexts:
        - name: real
          context: {cluster: real, user: %s, namespace: %s}
        current-context: real
        """.formatted(url, caCertData, name, token(namespace, name), name, namespace);
    try {
      Files.writeString(file, yaml);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return file;
  }
}
