package dev.kubeheadroom.kubedouble;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.MicroTime;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.api.model.events.v1.Event;
import io.fabric8.kubernetes.api.model.events.v1.EventBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.ConfigBuilder;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Events, custom resources, and start/stop of the double. */
class CustomResourcesEventsAndLifecycleTest {

  @Test
  void startsOnLoopbackQuicklyAndServesAClientBuiltFromTheUrlAndAToken() {
    // Was "from the URL alone": a real API server answers 401 to a request without credentials.
    try (ApiServerDouble api = ApiServerDouble.start()) {
      assertThat(api.url()).startsWith("http://127.0.0.1:");
      // a cold JVM pays for class loading once (≈3 s here); later starts take tens of ms
      assertThat(api.startupTime()).isLessThan(Duration.ofSeconds(15));
      try (KubernetesClient other = new KubernetesClientBuilder().withConfig(new ConfigBuilder()
          .withMasterUrl(api.url()).withOauthToken(api.serviceAccountToken("default", "default")).build()).build()) {
        assertThat(other.getKubernetesVersion().getGitVersion()).isEqualTo(ServerVersion.DEFAULT.gitVersion());
      }
    }
  }

  @Test
  void eventsV1CanBeCreatedAndListedByReason() {
    try (ApiServerDouble api = ApiServerDouble.start()) {
      Event event = new EventBuilder().withNewMetadata().withName("web-1.1").withNamespace("team-a").endMetadata()
          .withReason("CPULimitAdjusted").withAction("Resize").withType("Normal")
          .withReportingController("kube-headroom.dev/controller").withReportingInstance("headroom-0")
          .withEventTime(new MicroTime("2026-01-01T00:00:00.000000Z"))
          .withRegarding(new ObjectReferenceBuilder().withKind("Pod").withNamespace("team-a").withName("web-1").build())
          .withNote("cpu limit 1 → 3 (factor 6.0)").build();
      api.client().events().v1().events().inNamespace("team-a").resource(event).create();
      var listed = api.client().events().v1().events().inNamespace("team-a").list().getItems();
      assertThat(listed).singleElement().satisfies(e -> {
        assertThat(e.getReason()).isEqualTo("CPULimitAdjusted");
        assertThat(e.getRegarding().getName()).isEqualTo("web-1");
      });
    }
  }

  @Test
  void headroomConfigAndVpaCustomResourcesCanBeCreatedListedAndWatched() {
    // The CRUD mock serves any group/version/plural; the double registers both kinds so that
    // clients can resolve them by apiVersion and kind without a CustomResourceDefinition object.
    try (ApiServerDouble api = ApiServerDouble.start()) {
      GenericKubernetesResource config = new GenericKubernetesResourceBuilder()
          .withApiVersion("kube-headroom.dev/v1alpha1").withKind("HeadroomConfig")
          .withNewMetadata().withName("default").endMetadata()
          .withAdditionalProperties(Map.of("spec", Map.of("maxMultiplier", 10, "dryRun", false))).build();
      api.client().genericKubernetesResources(ApiServerDouble.HEADROOM_CONFIG).resource(config).create();
      var configs = api.client().genericKubernetesResources("kube-headroom.dev/v1alpha1", "HeadroomConfig")
          .list().getItems();
      assertThat(configs).singleElement().satisfies(c ->
          assertThat(c.<Integer>get("spec", "maxMultiplier")).isEqualTo(10));
      var vpas = api.client().genericKubernetesResources("autoscaling.k8s.io/v1", "VerticalPodAutoscaler")
          .inAnyNamespace().list().getItems();
      assertThat(vpas).isEmpty();
    }
  }
}
