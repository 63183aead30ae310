package dev.kubeheadroom.projection;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.schemas.ClusterConfig;
import dev.kubeheadroom.schemas.NamespaceInfo;
import dev.kubeheadroom.schemas.NodeEvent;
import dev.kubeheadroom.schemas.PodRemoved;
import dev.kubeheadroom.schemas.PodSnapshot;
import io.fabric8.kubernetes.api.model.LimitRange;
import io.fabric8.kubernetes.api.model.LimitRangeBuilder;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ClusterProjectorTest {
  /** Every record the projector emitted, as "kind key detail". */
  private final List<Object> sent = new ArrayList<>();
  private final Map<String, Map<String, Long>> applied = new HashMap<>();
  private final ClusterProjector projector = new ClusterProjector(new ClusterProjector.Output() {
    @Override
    public void node(String node, NodeEvent event) {
      sent.add(event);
    }

    @Override
    public void pod(PodSnapshot snapshot, PodSnapshot previous, Pod source) {
      sent.add(snapshot);
    }

    @Override
    public void podRemoved(PodRemoved removed, PodSnapshot previous) {
      sent.add(removed);
    }

    @Override
    public void namespace(String name, NamespaceInfo info) {
      sent.add(info == null ? "tombstone " + name : info);
    }

    @Override
    public void config(ClusterConfig config) {
      sent.add(config == null ? "config tombstone" : config);
    }
  }, applied::get);

  private static Pod pod(String phase, String resourceVersion) {
    return new PodBuilder(PodProjectionTest.pod(PodProjectionTest.container("app",
        Map.of("cpu", "500m"), Map.of("cpu", "1"))).build())
        .editMetadata().withResourceVersion(resourceVersion)
        .addNewOwnerReference().withKind("ReplicaSet").withName("web-7c9d").withUid("rs").withController(true)
        .withApiVersion("apps/v1").endOwnerReference().endMetadata()
        .editStatus().withPhase(phase).endStatus().build();
  }

  @Test
  void aPodIsPublishedWhenItsBookingChangesNotOnStatusChurn() {
    Pod unbound = new PodBuilder(pod("Pending", "1")).editSpec().withNodeName(null).endSpec().build();

    assertThat(projector.pod(unbound)).isEqualTo(ClusterProjector.Outcome.SKIPPED);
    assertThat(projector.pod(pod("Running", "2"))).isEqualTo(ClusterProjector.Outcome.PUBLISHED);
    assertThat(projector.pod(pod("Running", "3"))).isEqualTo(ClusterProjector.Outcome.UNCHANGED);
    assertThat(sent).hasSize(1);
  }

  @Test
  void aTerminalPodIsPublishedOnceAndRemovedWhenDeleted() {
    projector.pod(pod("Running", "1"));
    projector.pod(pod("Succeeded", "2"));
    projector.pod(pod("Succeeded", "3"));
    projector.podDeleted("uid-1");
    projector.podDeleted("uid-1");

    assertThat(sent).hasSize(3);
    assertThat(((PodSnapshot) sent.get(1)).terminal()).isTrue();
    assertThat(sent.get(2)).isEqualTo(new PodRemoved("uid-1", "team-a", "web-1", "n1"));
    assertThat(projector.publishedPods()).isEmpty();
  }

  @Test
  void emissionsKeepWhatWasEmittedInOrderUntilDrained() {
    Emissions emitted = new Emissions();
    ClusterProjector collecting = new ClusterProjector(emitted, applied::get);
    Pod running = pod("Running", "1");

    collecting.pod(running);
    PodSnapshot published = collecting.publishedPod("uid-1");
    collecting.podDeleted("uid-1");

    assertThat(emitted.drain()).containsExactly(
        new Emissions.PodEmitted(published, null, running),
        new Emissions.PodRemovedEmitted(new PodRemoved("uid-1", "team-a", "web-1", "n1"), published));
    assertThat(emitted.drain()).isEmpty();
  }

  @Test
  void aPodWhoseNodeNameChangesIsRemovedFromItsOldNodeBeforeItIsPublishedOnTheNew() {
    // The API server forbids the change; a log can hold it. Records are keyed by node: without
    // the removal n1 would go on booking the pod.
    projector.pod(pod("Running", "1"));
    projector.pod(new PodBuilder(pod("Running", "2")).editSpec().withNodeName("n2").endSpec().build());

    assertThat(sent).hasSize(3);
    assertThat(sent.get(1)).isEqualTo(new PodRemoved("uid-1", "team-a", "web-1", "n1"));
    assertThat(((PodSnapshot) sent.get(2)).node()).isEqualTo("n2");
    assertThat(projector.publishedPods()).extracting(PodSnapshot::node).containsExactly("n2");
  }

  @Test
  void aVpaThatControlsLimitsMarksItsPodsWhenTheCallerProjectsItsNamespaceAgain() {
    Pod running = pod("Running", "1");
    projector.pod(running);
    var vpa = VpaProjectionTest.vpa("{'targetRef':{'apiVersion':'apps/v1','kind':'Deployment','name':'web'}}");

    assertThat(projector.vpa(vpa, false)).isEqualTo("team-a");
    assertThat(sent).as("the projector holds no pods: a VPA alone publishes nothing").hasSize(1);
    projector.pod(running);
    projector.vpa(vpa, false);
    projector.pod(running); // no change of verdict: nothing more
    projector.vpa(vpa, true);
    projector.pod(running);

    assertThat(sent).extracting(p -> ((PodSnapshot) p).vpaControlsLimits()).containsExactly(false, true, false);
  }

  @Test
  void aNamespaceIsPublishedWhenItOrItsLimitRangeCapChanges() {
    Namespace ns = new NamespaceBuilder().withNewMetadata().withName("team-a").endMetadata().build();
    LimitRange cap = new LimitRangeBuilder().withNewMetadata().withName("cap").withNamespace("team-a").endMetadata()
        .withNewSpec().addNewLimit().withType("Container").withMax(Map.of("cpu", new Quantity("2"))).endLimit()
        .endSpec().build();

    projector.limitRange(cap, false); // namespace not known yet: held, nothing published
    projector.namespace(ns);
    projector.namespace(ns);
    projector.limitRange(cap, true);
    projector.namespaceDeleted("team-a");
    projector.namespaceDeleted("team-a");

    assertThat(sent).hasSize(3);
    assertThat(((NamespaceInfo) sent.get(0))).isNotEqualTo(sent.get(1));
    assertThat(sent.get(2)).isEqualTo("tombstone team-a");
  }

  @Test
  void aRefusedConfigPublishesNothingAndTheSameConfigIsPublishedOnce() {
    var good = ConfigProjectionTest.config("{}");
    var bad = ConfigProjectionTest.config("{'debouncePeriod':2}");

    projector.config(good);
    ClusterProjector.ConfigVerdict refused = projector.config(bad);
    projector.config(good);
    projector.configDeleted();
    projector.configDeleted();

    assertThat(refused.state().refused()).isTrue();
    assertThat(refused.outcome()).isEqualTo(ClusterProjector.Outcome.SKIPPED);
    assertThat(sent).hasSize(2);
    assertThat(sent.get(1)).isEqualTo("config tombstone");
  }

  @Test
  void aLimitHeadroomAppliedSurvivesTheNextWatchLineOfThePod() {
    projector.pod(pod("Running", "1"));
    applied.put("uid-1", Map.of("app", 3000L));
    projector.resized("uid-1", applied.get("uid-1"));
    assertThat(projector.publishedPod("uid-1").generation()).isEqualTo(4); // the resize bumped it

    projector.pod(pod("Running", "2")); // a watch line that does not show the resize

    assertThat(sent).extracting(p -> ((PodSnapshot) p).containers().get(0).cpuLimitMilli())
        .containsExactly(1000L, 3000L, 3000L);
  }
}
