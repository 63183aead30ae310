package dev.kubeheadroom.kubereal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.kubeheadroom.kubedouble.KubeletDouble.ResizeAnswer;
import dev.kubeheadroom.kubedouble.ServerVersion;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The node agent against the real API server: the kubelet's answers, through pods/status. */
@WithRealKubernetes
class NodeAgentTest {
  private static final String NS = "node-agent";
  private static final AtomicInteger RUNS = new AtomicInteger();
  private static NodeAgent agent;

  @BeforeAll
  static void start(RealControlPlane api) {
    api.client().namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(NS)
        .endMetadata().build()).serverSideApply();
    agent = NodeAgent.start(api.client());
    agent.registerNode("agent-n1", "4", "8Gi");
    agent.registerNode("agent-n2", "4", "8Gi");
  }

  @AfterAll
  static void stop() {
    agent.close();
  }

  @Test
  void startsABoundPodAndActuatesAResize(RealControlPlane api) {
    String grow = unique("grow");
    create(api, grow, "agent-n1", "500m", "1");
    Pod running = awaitPod(api, grow, p -> "Running".equals(p.getStatus().getPhase()));
    assertThat(status(running).getResources().getLimits()).containsEntry("cpu", new Quantity("1"));
    assertThat(status(running).getAllocatedResources()).containsEntry("cpu", new Quantity("500m"));

    resize(api, grow, "500m", "1500m");

    Pod resized = awaitPod(api, grow, p -> new Quantity("1500m")
        .equals(status(p).getResources().getLimits().get("cpu")));
    assertThat(condition(resized, "PodResizeInProgress")).isEmpty();
    assertThat(condition(resized, "PodResizePending")).isEmpty();
    assertThat(resized.getStatus().getObservedGeneration())
        .isEqualTo(resized.getMetadata().getGeneration());
    // ... and records the kubelet's Events of its release (ResizeStarted since v1.35)
    boolean started = ServerVersion.of(api.client().getKubernetesVersion().getGitVersion()).atLeast(35);
    await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(api.client().v1().events().inNamespace(NS)
        .list().getItems()).filteredOn(e -> grow.equals(e.getInvolvedObject().getName()))
        .allSatisfy(e -> {
          assertThat(e.getSource().getComponent()).isEqualTo("kubelet");
          assertThat(e.getReportingInstance()).isEqualTo("agent-n1");
        })
        .extracting(e -> e.getReason()).containsExactlyInAnyOrderElementsOf(started
            ? List.of("ResizeStarted", "ResizeCompleted") : List.of("ResizeCompleted")));
  }

  @Test
  void requestsAboveAllocatableAreRefusedByTheServerOrTheKubelet(RealControlPlane api) {
    String huge = unique("huge");
    create(api, huge, "agent-n2", "500m", "1");
    awaitPod(api, huge, p -> "Running".equals(p.getStatus().getPhase()));

    if (serverChecksNodeCapacity(api)) {
      // kube-apiserver checks a resize's requests against the Node's allocatable itself (403,
      // cause NodeCapacity): the kubelet's Infeasible is left for what the server cannot see.
      assertThatThrownBy(() -> resize(api, huge, "5", "5"))
          .isInstanceOfSatisfying(KubernetesClientException.class, e -> {
            assertThat(e.getCode()).isEqualTo(403);
            assertThat(e.getStatus().getDetails().getCauses()).extracting(c -> c.getReason())
                .containsExactly("NodeCapacity");
          });
    } else {
      resize(api, huge, "5", "5");
      Pod pending = awaitPod(api, huge, p -> condition(p, "PodResizePending").isPresent());
      assertThat(condition(pending, "PodResizePending").get().getReason()).isEqualTo("Infeasible");
    }
  }

  /** Seen on v1.37.2, not on v1.34.4 (the two versions the tests run). */
  private static boolean serverChecksNodeCapacity(RealControlPlane api) {
    return Integer.parseInt(api.client().getKubernetesVersion().getMinor().replaceAll("\\D", "")) >= 37;
  }

  private static String unique(String base) {
    return base + "-" + RUNS.incrementAndGet(); // a rerun creates fresh pods
  }

  @Test
  void aProgrammedNodeRefusesAsInfeasible(RealControlPlane api) {
    String refused = unique("refused");
    agent.answerResizes("agent-n1", ResizeAnswer.INFEASIBLE, "Node didn't have enough capacity: cpu");
    try {
      create(api, refused, "agent-n1", "200m", "400m");
      awaitPod(api, refused, p -> "Running".equals(p.getStatus().getPhase()));
      resize(api, refused, "200m", "800m");
      Pod pending = awaitPod(api, refused, p -> condition(p, "PodResizePending").isPresent());
      assertThat(condition(pending, "PodResizePending").get().getReason()).isEqualTo("Infeasible");
      assertThat(status(pending).getResources().getLimits()).containsEntry("cpu", new Quantity("400m"));
    } finally {
      agent.answerResizes("agent-n1", ResizeAnswer.APPLY, "");
    }
  }

  @Test
  void aProgrammedNodeDefers(RealControlPlane api) {
    String deferred = unique("deferred");
    agent.answerResizes("agent-n2", ResizeAnswer.DEFERRED, "Node didn't have enough resource: cpu");
    try {
      create(api, deferred, "agent-n2", "200m", "400m");
      awaitPod(api, deferred, p -> "Running".equals(p.getStatus().getPhase()));
      resize(api, deferred, "300m", "600m");
      Pod pending = awaitPod(api, deferred, p -> condition(p, "PodResizePending").isPresent());
      assertThat(condition(pending, "PodResizePending").get().getReason()).isEqualTo("Deferred");
    } finally {
      agent.answerResizes("agent-n2", ResizeAnswer.APPLY, "");
    }
    awaitPod(api, deferred, p -> new Quantity("600m")
        .equals(status(p).getResources().getLimits().get("cpu")));
  }

  private static void create(RealControlPlane api, String name, String node, String request,
      String limit) {
    api.client().pods().inNamespace(NS).resource(new PodBuilder()
        .withNewMetadata().withName(name).withNamespace(NS).endMetadata()
        .withNewSpec().withNodeName(node)
            .addNewContainer().withName("app").withImage("busybox")
                .withNewResources().addToRequests("cpu", new Quantity(request))
                    .addToLimits("cpu", new Quantity(limit)).endResources()
            .endContainer()
        .endSpec().build()).create();
  }

  private static void resize(RealControlPlane api, String name, String request, String limit) {
    Pod patch = new PodBuilder().withNewMetadata().withName(name).withNamespace(NS).endMetadata()
        .withNewSpec().addNewContainer().withName("app")
            .withNewResources().addToRequests("cpu", new Quantity(request))
                .addToLimits("cpu", new Quantity(limit)).endResources()
        .endContainer().endSpec().build();
    api.client().pods().inNamespace(NS).resource(patch).subresource("resize")
        .patch(new PatchContext.Builder().withPatchType(PatchType.SERVER_SIDE_APPLY)
            .withFieldManager("node-agent-test").withForce(true).build());
  }

  private static Pod awaitPod(RealControlPlane api, String name,
      java.util.function.Predicate<Pod> done) {
    return await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(50))
        .until(() -> api.client().pods().inNamespace(NS).withName(name).get(),
            p -> p != null && p.getStatus() != null && done.test(p));
  }

  private static ContainerStatus status(Pod pod) {
    return pod.getStatus().getContainerStatuses().get(0);
  }

  private static Optional<PodCondition> condition(Pod pod, String type) {
    return pod.getStatus().getConditions().stream().filter(c -> type.equals(c.getType())).findFirst();
  }
}
