package dev.kubeheadroom.kubedouble;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.client.VersionInfo;
import org.junit.jupiter.api.Test;

/** {@code GET /version}: a settable server version, as {@code client.getKubernetesVersion()} reads it. */
class ServerVersionTest {

  @Test
  void servesAGaResizeVersionUntilTheTestSetsAnother() {
    try (ApiServerDouble api = ApiServerDouble.start()) {
      VersionInfo first = api.client().getKubernetesVersion();
      assertThat(first.getMajor()).isEqualTo("1");
      assertThat(first.getMinor()).isEqualTo("35");
      assertThat(first.getGitVersion()).isEqualTo("v1.35.0");

      api.version(ServerVersion.of("v1.34.2-gke.1100"));
      VersionInfo second = api.client().getKubernetesVersion();
      assertThat(second.getMinor()).isEqualTo("34");
      assertThat(second.getGitVersion()).isEqualTo("v1.34.2-gke.1100");
      assertThat(api.requests().count(RequestMatcher.any())).isEqualTo(2);
    }
  }

  @Test
  void refusesAVersionThatIsNotSemver() {
    assertThatThrownBy(() -> ServerVersion.of("latest")).hasMessageContaining("v1.35.0");
  }

  @Test
  void comparesReleasesByMinorIncludingAManagedOfferingsPlus() {
    // the stand-in kubelets choose their behaviour by release ("36+" as some managed servers say)
    assertThat(new ServerVersion("1", "36+", "v1.36.1-eks").atLeast(36)).isTrue();
    assertThat(ServerVersion.of("v1.35.0").atLeast(36)).isFalse();
    assertThat(ServerVersion.of("v1.37.2").minorNumber()).isEqualTo(37);
    assertThat(ServerVersion.of("v2.0.0").atLeast(36)).isTrue();
  }
}
