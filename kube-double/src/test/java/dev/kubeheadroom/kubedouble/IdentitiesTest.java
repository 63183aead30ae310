package dev.kubeheadroom.kubedouble;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.Config;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The identities the double hands out: ServiceAccount tokens, clients and kubeconfig files. */
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
}
