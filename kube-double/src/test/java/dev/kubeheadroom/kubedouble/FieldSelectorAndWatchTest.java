package dev.kubeheadroom.kubedouble;

import static dev.kubeheadroom.kubedouble.TestPods.NS;
import static dev.kubeheadroom.kubedouble.TestPods.burstable;
import static dev.kubeheadroom.kubedouble.TestPods.cpuLimitOnly;
import static dev.kubeheadroom.kubedouble.TestPods.headroomApply;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** fieldSelector on lists and watches, and watch events after a resize (docs/design/headroom-design.txt §6.2). */
class FieldSelectorAndWatchTest {
  private ApiServerDouble api;

  @BeforeEach
  void start() {
    api = ApiServerDouble.start();
    api.client().pods().inNamespace(NS).resource(burstable("a-1", "n1", "500m", "1")).create();
    api.client().pods().inNamespace(NS).resource(burstable("b-1", "n2", "500m", "1")).create();
    api.client().pods().inNamespace("team-b").resource(
        new io.fabric8.kubernetes.api.model.PodBuilder(burstable("a-2", "n1", "500m", "1"))
            .editMetadata().withNamespace("team-b").endMetadata().build()).create();
  }

  @AfterEach
  void stop() {
    api.close();
  }

  private static List<String> names(List<? extends HasMetadata> items) {
    return items.stream().map(i -> i.getMetadata().getName()).sorted().toList();
  }

  @Test
  void listingPodsBySpecNodeNameReturnsOnlyThatNodesPodsInEveryNamespace() {
    var onN1 = api.client().pods().inAnyNamespace().withField("spec.nodeName", "n1").list().getItems();
    assertThat(names(onN1)).containsExactly("a-1", "a-2");
  }

  @Test
  void listingPodsByMetadataNameInANamespaceFilters() {
    var named = api.client().pods().inNamespace(NS).withField("metadata.name", "b-1").list().getItems();
    assertThat(names(named)).containsExactly("b-1");
  }

  @Test
  void aWatchWithANodeSelectorSeesOnlyThatNodesPods() throws Exception {
    // given
    List<String> seen = new CopyOnWriteArrayList<>();
    Watch watch = api.client().pods().inAnyNamespace().withField("spec.nodeName", "n2").watch(new Watcher<>() {
      @Override
      public void eventReceived(Action action, Pod pod) {
        seen.add(action + " " + pod.getMetadata().getName());
      }

      @Override
      public void onClose(WatcherException cause) {}
    });
    try {
      // when
      api.client().pods().inNamespace(NS).resource(cpuLimitOnly("a-1", "app", "2")).subresource("resize")
          .patch(headroomApply());
      api.client().pods().inNamespace(NS).resource(cpuLimitOnly("b-1", "app", "2")).subresource("resize")
          .patch(headroomApply());
      api.client().pods().inNamespace(NS).resource(burstable("b-2", "n2", "100m", "1")).create();
      // then
      await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
          assertThat(seen).contains("MODIFIED b-1", "ADDED b-2"));
      assertThat(seen).noneMatch(event -> event.endsWith("a-1") || event.endsWith("a-2"));
    } finally {
      watch.close();
    }
  }

  @Test
  void anInformerOnANodesPodsSeesTheModifiedEventOfAResize() {
    // given
    List<Pod> updates = new CopyOnWriteArrayList<>();
    SharedIndexInformer<Pod> informer = api.newClient().pods().inAnyNamespace()
        .withField("spec.nodeName", "n1").inform(new ResourceEventHandler<>() {
          @Override
          public void onAdd(Pod pod) {}

          @Override
          public void onUpdate(Pod before, Pod after) {
            updates.add(after);
          }

          @Override
          public void onDelete(Pod pod, boolean unknownFinalState) {}
        });
    await().atMost(Duration.ofSeconds(10)).until(informer::hasSynced);
    assertThat(informer.getStore().list()).extracting(p -> p.getMetadata().getName())
        .containsExactlyInAnyOrder("a-1", "a-2");
    // when
    api.client().pods().inNamespace(NS).resource(cpuLimitOnly("a-1", "app", "3")).subresource("resize")
        .patch(headroomApply());
    // then
    await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
        assertThat(updates).anySatisfy(pod -> {
          assertThat(pod.getMetadata().getName()).isEqualTo("a-1");
          assertThat(pod.getSpec().getContainers().get(0).getResources().getLimits())
              .containsEntry("cpu", new Quantity("3"));
        }));
    informer.close();
  }

  @Test
  void aPodDeletedFromASelectedNodeArrivesAsDeleted() {
    List<String> seen = new CopyOnWriteArrayList<>();
    Watch watch = api.client().pods().inAnyNamespace().withField("spec.nodeName", "n1").watch(new Watcher<>() {
      @Override
      public void eventReceived(Action action, Pod pod) {
        seen.add(action + " " + pod.getMetadata().getName());
      }

      @Override
      public void onClose(WatcherException cause) {}
    });
    try {
      api.client().pods().inNamespace(NS).withName("a-1").delete();
      api.client().pods().inNamespace(NS).withName("b-1").delete();
      await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(seen).contains("DELETED a-1"));
      assertThat(seen).doesNotContain("DELETED b-1");
    } finally {
      watch.close();
    }
  }
}
