package dev.kubeheadroom.kubedouble;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The identities the double hands out: ServiceAccount tokens, clients and kubeconfig files. */
@org.junit.jupiter.api.parallel.Isolated // sets the kubeconfig system property for a moment
class IdentitiesTest {
  private ApiServerDouble api;

  @BeforeEach
  void start() {
    api = ApiServerDouble.start();
  }

  @AfterEach
  void stop() {
    api.close();
  }

  @Test
  void aServiceAccountKeepsItsTokenAndTwoServiceAccountsDiffer() {
    String token = api.serviceAccountToken("headroom", "actuator");

    assertThat(api.serviceAccountToken("headroom", "actuator")).isEqualTo(token);
    assertThat(api.serviceAccountToken("headroom", "ingest")).isNotEqualTo(token);
    assertThat(api.serviceAccountToken("other", "actuator")).isNotEqualTo(token);
    assertThat(api.config().getOauthToken()).isNotIn(token, null, "");
  }

  @Test
  void configAsCarriesTheTokenAndTheServiceAccountsNamespace() {
    Config config = api.configAs("headroom", "actuator");

    assertThat(config.getOauthToken()).isEqualTo(api.serviceAccountToken("headroom", "actuator"));
    assertThat(config.getNamespace()).isEqualTo("headroom");
    assertThat(config.getMasterUrl()).isEqualTo(api.url());
    assertThat(api.clientAs("headroom", "actuator").getNamespace()).isEqualTo("headroom");
  }

  /** What a stage started as its own process with {@code --kubeconfig} / {@code KUBECONFIG} reads. */
  @Test
  void aWrittenKubeconfigReadsBackAsTheServiceAccount(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("actuator.kubeconfig");

    api.writeKubeconfig("headroom", "actuator", file);

    Config config = Config.fromKubeconfig(null, Files.readString(file), file.toString());
    assertThat(config.getMasterUrl()).isEqualTo(api.url());
    // fabric8 keeps a kubeconfig's token as the "auto" OAuth token and sends it as a bearer token.
    assertThat(config.getAutoOAuthToken()).isEqualTo(api.serviceAccountToken("headroom", "actuator"));
    assertThat(config.getNamespace()).isEqualTo("headroom");
  }

  /**
   * The path a stage started with {@code KUBECONFIG=file} takes: {@code Config.autoConfigure}
   * (which reads the {@code kubeconfig} system property before the environment variable). Its
   * requests authenticate as the ServiceAccount: discovery works, pods are forbidden by name.
   */
  @Test
  void aClientAutoConfiguredFromTheKubeconfigActsAsTheServiceAccount(@TempDir Path dir) {
    Path file = dir.resolve("ingest.kubeconfig");
    api.writeKubeconfig("headroom", "ingest", file);
    String previous = System.getProperty("kubeconfig");
    Config config;
    try {
      System.setProperty("kubeconfig", file.toString());
      config = Config.autoConfigure(null);
    } finally {
      if (previous == null) {
        System.clearProperty("kubeconfig");
      } else {
        System.setProperty("kubeconfig", previous);
      }
    }
    config.setRequestRetryBackoffLimit(0);

    try (KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build()) {
      assertThat(client.getKubernetesVersion().getGitVersion()).isEqualTo(ServerVersion.DEFAULT.gitVersion());
      assertThat(client.getNamespace()).isEqualTo("headroom");
      assertThatThrownBy(() -> client.pods().list()).isInstanceOfSatisfying(KubernetesClientException.class,
          e -> assertThat(e.getStatus().getMessage()).isEqualTo("pods is forbidden: User "
              + "\"system:serviceaccount:headroom:ingest\" cannot list resource \"pods\" in API group \"\" "
              + "in the namespace \"headroom\""));
    }
  }
}
