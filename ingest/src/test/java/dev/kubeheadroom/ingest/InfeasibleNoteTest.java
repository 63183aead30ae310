package dev.kubeheadroom.ingest;

import static dev.kubeheadroom.ingest.TestObjects.pod;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.projection.PodProjection;
import dev.kubeheadroom.schemas.PodSnapshot;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import org.junit.jupiter.api.Test;

/** The words of the ResizeInfeasible event, read from the stripped cache copy as ingest does. */
class InfeasibleNoteTest {
  private final PodFieldStripper stripper = new PodFieldStripper();

  private static Pod withCondition(Pod pod, String reason, String message) {
    pod.getMetadata().setUid("uid-1");
    pod.getStatus().getConditions().add(new PodConditionBuilder().withType("PodResizePending")
        .withStatus("True").withReason(reason).withMessage(message).build());
    return pod;
  }

  private static PodSnapshot snapshot(Pod pod) {
    return PodProjection.project(pod, false).orElseThrow();
  }

  @Test
  void namesTheSpecLimitsAndQuotesTheKubeletOnOneLine() {
    Pod pod = stripper.strip(withCondition(pod("team-a", "web-1", "node-1", "500m", "3"), "Infeasible",
        "Node didn't have enough capacity: cpu,\n  requested: 3000, capacity: 2000"));

    assertThat(InfeasibleEvents.note(snapshot(pod), InfeasibleEvents.kubeletMessage(pod))).isEqualTo(
        "kubelet cannot apply the resize to CPU limits app=3000m: "
            + "Node didn't have enough capacity: cpu, requested: 3000, capacity: 2000");
  }

  @Test
  void withoutLimitOrMessageItSaysOnlyWhatIsKnown() {
    Pod pod = pod("team-a", "web-1", "node-1", "500m", "1");
    pod.getMetadata().setUid("uid-1");
    pod.getSpec().getContainers().get(0).getResources().getLimits().remove("cpu");
    pod.getStatus().setResize("Infeasible"); // pre-1.33: no condition, no message
    Pod stripped = stripper.strip(pod);

    assertThat(InfeasibleEvents.kubeletMessage(stripped)).isNull();
    assertThat(InfeasibleEvents.note(snapshot(stripped), null)).isEqualTo("kubelet cannot apply the resize");
  }

  @Test
  void theCacheKeepsTheMessageOfAnInfeasibleConditionOnly() {
    Pod infeasible = stripper.strip(withCondition(pod("team-a", "a", "node-1", "500m", "1"), "Infeasible", "no room"));
    Pod deferred = stripper.strip(withCondition(pod("team-a", "b", "node-1", "500m", "1"), "Deferred", "later"));

    assertThat(infeasible.getStatus().getConditions()).singleElement()
        .satisfies(c -> assertThat(c.getMessage()).isEqualTo("no room"));
    assertThat(deferred.getStatus().getConditions()).singleElement()
        .satisfies(c -> assertThat(c.getMessage()).isNull());
    assertThat(InfeasibleEvents.kubeletMessage(deferred)).isNull();
  }

  @Test
  void sidecarLimitsAreNamedToo() {
    Pod pod = pod("team-a", "web-1", "node-1", "500m", "2");
    pod.getSpec().getInitContainers().add(new ContainerBuilder()
        .withName("proxy").withRestartPolicy("Always").withNewResources()
        .addToRequests("cpu", new Quantity("100m")).addToLimits("cpu", new Quantity("250m"))
        .endResources().build());
    withCondition(pod, "Infeasible", "no room");

    assertThat(InfeasibleEvents.note(snapshot(pod), "no room"))
        .isEqualTo("kubelet cannot apply the resize to CPU limits proxy=250m, app=2000m: no room");
  }
}
