package dev.kubeheadroom.kubedouble;

import static dev.kubeheadroom.kubedouble.TestPods.NS;
import static dev.kubeheadroom.kubedouble.TestPods.burstable;
import static dev.kubeheadroom.kubedouble.TestPods.cpuLimitOnly;
import static dev.kubeheadroom.kubedouble.TestPods.headroomApply;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceQuota;
import io.fabric8.kubernetes.api.model.ResourceQuotaBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The ResourceQuota admission plugin on pod CREATE and {@code pods/resize}, as
 * {@code plugin/pkg/admission/resourcequota/controller.go} ({@code checkRequest}) and the pod
 * evaluator {@code pkg/quota/v1/evaluator/core/pods.go} do it.
 */
class ResourceQuotaTest {
  private ApiServerDouble api;

  @BeforeEach
  void start() {
    api = ApiServerDouble.start();
  }

  @AfterEach
  void stop() {
    api.close();
  }

  private void quota(Map<String, String> hard) {
    ResourceQuotaBuilder builder = new ResourceQuotaBuilder().withNewMetadata().withName("compute")
        .withNamespace(NS).endMetadata().withNewSpec().endSpec();
    hard.forEach((resource, amount) -> builder.editSpec().addToHard(resource, new Quantity(amount)).endSpec());
    api.client().resourceQuotas().inNamespace(NS).resource(builder.build()).create();
  }

  private Pod create(Pod pod) {
    return api.client().pods().inNamespace(NS).resource(pod).create();
  }

  private Pod resize(String name, String cpuLimit) {
    return api.client().pods().inNamespace(NS).resource(cpuLimitOnly(name, "app", cpuLimit))
        .subresource("resize").patch(headroomApply());
  }

  private static Consumer<KubernetesClientException> forbidden(String message) {
    return e -> {
      assertThat(e.getCode()).isEqualTo(403);
      assertThat(e.getStatus().getMessage()).isEqualTo(message);
    };
  }

  @Test
  void aCreationBeyondTheLimitsCpuQuotaIsForbidden() {
    // checkRequest: used + requested must stay within hard for each resource the pod charges
    quota(Map.of("limits.cpu", "4"));
    create(burstable("web-1", "n1", "500m", "3"));
    assertThatThrownBy(() -> create(burstable("web-2", "n1", "500m", "2")))
        .isInstanceOfSatisfying(KubernetesClientException.class, forbidden("pods \"web-2\" is forbidden: "
            + "exceeded quota: compute, requested: limits.cpu=2, used: limits.cpu=3, limited: limits.cpu=4"));
  }

  @Test
  void aContainerWithoutACpuLimitIsForbiddenUnderALimitsCpuQuota() {
    // podEvaluator.Constraints: quotas on cpu/memory require every container to set them
    quota(Map.of("limits.cpu", "4"));
    assertThatThrownBy(() -> create(burstable("web-1", "n1", "500m", null)))
        .isInstanceOfSatisfying(KubernetesClientException.class,
            forbidden("pods \"web-1\" is forbidden: failed quota: compute: must specify limits.cpu for: app"));
  }

  @Test
  void aResizeIsChargedItsDifference() {
    // podEvaluator.Handles: UPDATE of the resize subresource; the delta new - old is charged
    quota(Map.of("limits.cpu", "4", "requests.cpu", "2"));
    create(burstable("web-1", "n1", "500m", "1"));
    create(burstable("web-2", "n1", "500m", "1"));
    resize("web-1", "2");
    assertThatThrownBy(() -> resize("web-2", "3"))
        .isInstanceOfSatisfying(KubernetesClientException.class, forbidden("pods \"web-2\" is forbidden: "
            + "exceeded quota: compute, requested: limits.cpu=2, used: limits.cpu=3, limited: limits.cpu=4"));
    assertThat(api.pod(NS, "web-2").orElseThrow().getSpec().getContainers().get(0).getResources().getLimits())
        .containsEntry("cpu", new Quantity("1"));
    // and a decrease is always within quota
    assertThat(resize("web-1", "1500m").getSpec().getContainers().get(0).getResources().getLimits())
        .containsEntry("cpu", new Quantity("1500m"));
  }

  @Test
  void usageCountsTheLargerOfDesiredAndActualWhileAResizeIsPending() {
    // PodUsageFunc with UseStatusResources: max(spec, status.resources, allocatedResources) per
    // container (component-helpers resource.determineContainerLimits)
    quota(Map.of("limits.cpu", "4"));
    Pod shrinking = new PodBuilder(burstable("web-1", "n1", "500m", "1")).withNewStatus().withPhase("Running")
        .addToContainerStatuses(new ContainerStatusBuilder().withName("app").withNewState().withNewRunning()
            .endRunning().endState().withNewResources().addToRequests("cpu", new Quantity("500m"))
            .addToLimits("cpu", new Quantity("3")).endResources().build())
        .endStatus().build();
    api.seedClient().pods().inNamespace(NS).resource(shrinking).create(); // runs at 3, spec says 1
    assertThatThrownBy(() -> create(burstable("web-2", "n1", "500m", "2")))
        .isInstanceOfSatisfying(KubernetesClientException.class, forbidden("pods \"web-2\" is forbidden: "
            + "exceeded quota: compute, requested: limits.cpu=2, used: limits.cpu=3, limited: limits.cpu=4"));
  }

  @Test
  void finishedPodsChargeNothing() {
    // QuotaV1Pod: Succeeded and Failed pods are not charged
    quota(Map.of("limits.cpu", "4", "pods", "1"));
    Pod done = new PodBuilder(burstable("job-1", "n1", "500m", "4")).withNewStatus().withPhase("Succeeded")
        .endStatus().build();
    api.seedClient().pods().inNamespace(NS).resource(done).create();
    assertThat(create(burstable("web-1", "n1", "500m", "4")).getMetadata().getName()).isEqualTo("web-1");
  }

  @Test
  void theQuotaStatusFollowsAdmittedWrites() {
    // the quota controller's status.used (the double recomputes it at each admitted write)
    quota(Map.of("limits.cpu", "4", "requests.cpu", "2", "pods", "10"));
    create(burstable("web-1", "n1", "500m", "1"));
    resize("web-1", "2500m");
    ResourceQuota stored = api.client().resourceQuotas().inNamespace(NS).withName("compute").get();
    assertThat(stored.getStatus().getUsed()).containsEntry("limits.cpu", new Quantity("2500m"))
        .containsEntry("requests.cpu", new Quantity("500m")).containsEntry("pods", new Quantity("1"));
    assertThat(stored.getStatus().getHard()).containsEntry("limits.cpu", new Quantity("4"));
  }

  @Test
  void aQuotaScopedToBestEffortPodsDoesNotLimitBurstableOnes() {
    // podMatchesScopeFunc: BestEffort / NotBestEffort scopes
    api.client().resourceQuotas().inNamespace(NS).resource(new ResourceQuotaBuilder().withNewMetadata()
        .withName("best-effort").withNamespace(NS).endMetadata().withNewSpec().addToHard("pods", new Quantity("0"))
        .withScopes("BestEffort").endSpec().build()).create();
    assertThat(create(burstable("web-1", "n1", "500m", "1")).getMetadata().getName()).isEqualTo("web-1");
    assertThatThrownBy(() -> create(TestPods.bestEffort("batch-1", "n1")))
        .isInstanceOfSatisfying(KubernetesClientException.class, forbidden("pods \"batch-1\" is forbidden: "
            + "exceeded quota: best-effort, requested: pods=1, used: pods=0, limited: pods=0"));
  }

  @Test
  void theInjectedQuotaFaultStillAnswersWithoutAQuota() {
    api.faults().next(1, RequestMatcher.resize(), Fault.forbiddenByQuota("compute", "limits.cpu=2", "limits.cpu=4",
        "limits.cpu=5"));
    create(burstable("web-1", "n1", "500m", "1"));
    assertThatThrownBy(() -> resize("web-1", "3"))
        .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(403));
  }
}
