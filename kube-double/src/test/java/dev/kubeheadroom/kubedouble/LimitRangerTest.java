package dev.kubeheadroom.kubedouble;

import static dev.kubeheadroom.kubedouble.TestPods.NS;
import static dev.kubeheadroom.kubedouble.TestPods.burstable;
import static dev.kubeheadroom.kubedouble.TestPods.cpuLimitOnly;
import static dev.kubeheadroom.kubedouble.TestPods.headroomApply;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.LimitRangeBuilder;
import io.fabric8.kubernetes.api.model.LimitRangeItem;
import io.fabric8.kubernetes.api.model.LimitRangeItemBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The LimitRanger admission plugin on pod CREATE and on {@code pods/resize}: every rule here is
 * copied from {@code plugin/pkg/admission/limitranger/admission.go}.
 */
class LimitRangerTest {
  private ApiServerDouble api;

  @BeforeEach
  void start() {
    api = ApiServerDouble.start();
  }

  @AfterEach
  void stop() {
    api.close();
  }

  private void limitRange(LimitRangeItem... items) {
    api.client().limitRanges().inNamespace(NS).resource(new LimitRangeBuilder().withNewMetadata()
        .withName("limits").withNamespace(NS).endMetadata().withNewSpec().withLimits(items).endSpec().build())
        .create();
  }

  private static LimitRangeItem item(String type, Consumer<LimitRangeItemBuilder> edit) {
    LimitRangeItemBuilder builder = new LimitRangeItemBuilder().withType(type);
    edit.accept(builder);
    return builder.build();
  }

  private Pod create(Pod pod) {
    return api.client().pods().inNamespace(NS).resource(pod).create();
  }

  private static Consumer<KubernetesClientException> forbidden(String message) {
    return e -> {
      assertThat(e.getCode()).isEqualTo(403);
      assertThat(e.getStatus().getReason()).isEqualTo("Forbidden");
      assertThat(e.getStatus().getMessage()).isEqualTo(message);
    };
  }

  @Test
  void aContainerLimitAboveTheContainerMaxIsForbiddenAtCreation() {
    // maxConstraint, type Container
    limitRange(item("Container", b -> b.addToMax("cpu", new Quantity("2"))));
    assertThatThrownBy(() -> create(burstable("web-1", "n1", "500m", "4")))
        .isInstanceOfSatisfying(KubernetesClientException.class,
            forbidden("pods \"web-1\" is forbidden: maximum cpu usage per Container is 2, but limit is 4"));
    assertThat(api.pod(NS, "web-1")).isEmpty();
  }

  @Test
  void theSumOverContainersAboveThePodMaxIsForbidden() {
    // maxConstraint on podLimits (the sum over containers), type Pod
    limitRange(item("Pod", b -> b.addToMax("cpu", new Quantity("4"))));
    Pod twoContainers = new PodBuilder(burstable("web-1", "n1", "500m", "3")).editSpec()
        .addToContainers(new ContainerBuilder().withName("side").withImage("registry.example/side:1")
            .withNewResources().addToRequests("cpu", new Quantity("1")).addToLimits("cpu", new Quantity("3"))
            .endResources().build())
        .endSpec().build();
    assertThatThrownBy(() -> create(twoContainers))
        .isInstanceOfSatisfying(KubernetesClientException.class,
            forbidden("pods \"web-1\" is forbidden: maximum cpu usage per Pod is 4, but limit is 6"));
  }

  @Test
  void aLimitToRequestRatioAboveTheMaxIsForbidden() {
    // limitRequestRatioConstraint: limit / request printed with %f
    limitRange(item("Container", b -> b.addToMaxLimitRequestRatio("cpu", new Quantity("2"))));
    assertThatThrownBy(() -> create(burstable("web-1", "n1", "500m", "2")))
        .isInstanceOfSatisfying(KubernetesClientException.class, forbidden("pods \"web-1\" is forbidden: "
            + "cpu max limit to request ratio per Container is 2, but provided ratio is 4.000000"));
  }

  @Test
  void aRequestBelowTheContainerMinIsForbidden() {
    // minConstraint, type Container (min also becomes defaultRequest, not used here: a request is set)
    limitRange(item("Container", b -> b.addToMin("cpu", new Quantity("100m"))));
    assertThatThrownBy(() -> create(burstable("web-1", "n1", "50m", "1")))
        .isInstanceOfSatisfying(KubernetesClientException.class,
            forbidden("pods \"web-1\" is forbidden: minimum cpu usage per Container is 100m, but request is 50m"));
  }

  @Test
  void severalViolationsAreReportedTogether() {
    // utilerrors.NewAggregate: "[a, b]"
    limitRange(item("Container", b -> b.addToMax("cpu", new Quantity("2"))
        .addToMaxLimitRequestRatio("cpu", new Quantity("2"))));
    assertThatThrownBy(() -> create(burstable("web-1", "n1", "500m", "4")))
        .isInstanceOfSatisfying(KubernetesClientException.class, forbidden("pods \"web-1\" is forbidden: "
            + "[maximum cpu usage per Container is 2, but limit is 4, "
            + "cpu max limit to request ratio per Container is 2, but provided ratio is 8.000000]"));
  }

  @Test
  void aContainerWithoutCpuGetsTheDefaultsAndTheDefaultLimitIsTheMaxWhenUnset() {
    // SetDefaults_LimitRangeItem (pkg/apis/core/v1/defaults.go): default <- max, defaultRequest <-
    // default; PodMutateLimitFunc then fills what the container lacks and annotates the pod
    limitRange(item("Container", b -> b.addToMax("cpu", new Quantity("2"))));
    Pod created = create(new PodBuilder().withNewMetadata().withName("web-1").withNamespace(NS).endMetadata()
        .withNewSpec().withNodeName("n1").addToContainers(new ContainerBuilder().withName("app")
            .withImage("registry.example/app:1").withNewResources().addToRequests("memory", new Quantity("64Mi"))
            .endResources().build()).endSpec().build());
    var resources = created.getSpec().getContainers().get(0).getResources();
    assertThat(resources.getLimits()).containsEntry("cpu", new Quantity("2"));
    assertThat(resources.getRequests()).containsEntry("cpu", new Quantity("2"))
        .containsEntry("memory", new Quantity("64Mi"));
    assertThat(created.getMetadata().getAnnotations()).containsEntry("kubernetes.io/limit-ranger",
        "LimitRanger plugin set: cpu request for container app; cpu limit for container app");
    assertThat(created.getStatus().getQosClass()).isEqualTo("Burstable");
  }

  @Test
  void aResizeAboveTheContainerMaxIsForbiddenAndChangesNothing() {
    // SupportsAttributes admits a pod UPDATE through the resize subresource: LimitRanger
    // validates resizes like creations
    limitRange(item("Container", b -> b.addToMax("cpu", new Quantity("2"))));
    create(burstable("web-1", "n1", "500m", "1"));
    assertThatThrownBy(() -> api.client().pods().inNamespace(NS).resource(cpuLimitOnly("web-1", "app", "3"))
        .subresource("resize").patch(headroomApply()))
        .isInstanceOfSatisfying(KubernetesClientException.class,
            forbidden("pods \"web-1\" is forbidden: maximum cpu usage per Container is 2, but limit is 3"));
    Pod stored = api.pod(NS, "web-1").orElseThrow();
    assertThat(stored.getSpec().getContainers().get(0).getResources().getLimits()).containsEntry("cpu", new Quantity("1"));
    assertThat(stored.getMetadata().getGeneration()).isEqualTo(1L);
  }

  @Test
  void aResizeWithinTheLimitRangeIsAccepted() {
    limitRange(item("Container", b -> b.addToMax("cpu", new Quantity("2"))));
    create(burstable("web-1", "n1", "500m", "1"));
    Pod resized = api.client().pods().inNamespace(NS).resource(cpuLimitOnly("web-1", "app", "2"))
        .subresource("resize").patch(headroomApply());
    assertThat(resized.getSpec().getContainers().get(0).getResources().getLimits())
        .containsEntry("cpu", new Quantity("2"));
  }

  @Test
  void seededPodsBypassAdmissionLikeObjectsThatPredateTheLimitRange() {
    // admission runs on requests, not on what is stored: a pod created before the LimitRange stays
    limitRange(item("Container", b -> b.addToMax("cpu", new Quantity("2"))));
    api.seedClient().pods().inNamespace(NS).resource(burstable("old-1", "n1", "500m", "4")).create();
    assertThat(api.pod(NS, "old-1").orElseThrow().getSpec().getContainers().get(0).getResources().getLimits())
        .containsEntry("cpu", new Quantity("4"));
  }

  @Test
  void limitRangesOfOtherNamespacesDoNotApply() {
    api.client().limitRanges().inNamespace("team-b").resource(new LimitRangeBuilder().withNewMetadata()
        .withName("limits").withNamespace("team-b").endMetadata().withNewSpec()
        .withLimits(item("Container", b -> b.addToMax("cpu", new Quantity("2")))).endSpec().build()).create();
    assertThat(create(burstable("web-1", "n1", "500m", "4")).getSpec().getContainers().get(0).getResources()
        .getLimits()).containsEntry("cpu", new Quantity("4"));
  }
}
