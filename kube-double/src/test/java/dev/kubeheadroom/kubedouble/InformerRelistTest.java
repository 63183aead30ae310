package dev.kubeheadroom.kubedouble;

import static dev.kubeheadroom.kubedouble.TestPods.NS;
import static dev.kubeheadroom.kubedouble.TestPods.burstable;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.kubeheadroom.kubedouble.ApiRequest.Verb;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A real fabric8 informer (as ingest runs them) across a cut watch. */
class InformerRelistTest {
  private ApiServerDouble api;
  private SharedIndexInformer<Pod> informer;
  private final List<String> events = new CopyOnWriteArrayList<>();

  @BeforeEach
  void start() {
    api = ApiServerDouble.start();
    for (String name : List.of("a", "b", "c")) {
      api.client().pods().inNamespace(NS).resource(burstable(name, "n1", "100m", "1")).create();
    }
    informer = api.newClient().pods().inAnyNamespace().inform(new ResourceEventHandler<>() {
      @Override
      public void onAdd(Pod pod) {
        events.add("add " + pod.getMetadata().getName());
      }

      @Override
      public void onUpdate(Pod before, Pod after) {
        if (!before.getMetadata().getResourceVersion().equals(after.getMetadata().getResourceVersion())) {
          events.add("update " + after.getMetadata().getName());
        }
      }

      @Override
      public void onDelete(Pod pod, boolean finalStateUnknown) {
        events.add("delete " + pod.getMetadata().getName());
      }
    });
    await().atMost(Duration.ofSeconds(20)).until(informer::hasSynced);
  }

  @AfterEach
  void stop() {
    informer.close();
    api.close();
  }

  /** While the informer cannot watch: b deleted, d created, c relabelled. */
  private void changeWhileCutOff() {
    api.client().pods().inNamespace(NS).withName("b").delete();
    api.client().pods().inNamespace(NS).resource(burstable("d", "n1", "100m", "1")).create();
    api.client().pods().inNamespace(NS).withName("c").edit(p -> {
      p.getMetadata().getLabels().put("tier", "web");
      return p;
    });
  }

  private void assertConverged() {
    await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
        assertThat(informer.getStore().list()).extracting(p -> p.getMetadata().getName())
            .containsExactlyInAnyOrder("a", "c", "d"));
    assertThat(informer.getStore().getByKey(NS + "/c").getMetadata().getLabels()).containsEntry("tier", "web");
    assertThat(informer.getStore().list()).allSatisfy(p -> assertThat(p.getMetadata().getResourceVersion())
        .isEqualTo(api.pod(NS, p.getMetadata().getName()).orElseThrow().getMetadata().getResourceVersion()));
  }

  // cacher.go Watch + watch_cache.go: a watch resuming from before the compacted history gets
  // ERROR 410 Expired; client-go's reflector (and fabric8's Reflector.ReflectorWatcher.onClose,
  // isHttpGone) then relists and replaces its store: nothing lost, nothing phantom.
  @Test
  void anInformerCutOffPastTheHistoryRelistsAfter410AndConverges() {
    // given: the informer is cut off and cannot reconnect yet
    FaultInjector.Rule refuseWatches = api.faults().always(RequestMatcher.of(Verb.WATCH, "pods"),
        new Fault.Respond(503, "ServiceUnavailable", "the server is currently unable to handle the request"));
    api.dropWatches();
    await().atMost(Duration.ofSeconds(10)).until(() -> api.openWatches() == 0);
    changeWhileCutOff();
    api.compactHistory();
    long listsBefore = api.requests().count(Verb.LIST, "pods", "");
    // when
    refuseWatches.remove();
    // then
    assertConverged();
    assertThat(api.requests().count(Verb.LIST, "pods", "")).isEqualTo(listsBefore + 1);
    await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
        assertThat(events).contains("delete b", "add d", "update c")); // handlers are told after the store
  }

  // watch_cache.go getAllEventsSinceLocked: within the history, the reconnecting watch gets each
  // missed change once, in order, and the informer needs no relist.
  @Test
  void anInformerCutOffWithinTheHistoryResumesWithoutRelistingOrDuplicates() {
    // given
    FaultInjector.Rule refuseWatches = api.faults().always(RequestMatcher.of(Verb.WATCH, "pods"),
        new Fault.Respond(503, "ServiceUnavailable", "the server is currently unable to handle the request"));
    api.dropWatches();
    await().atMost(Duration.ofSeconds(10)).until(() -> api.openWatches() == 0);
    events.clear();
    changeWhileCutOff();
    // when
    refuseWatches.remove();
    // then
    assertConverged();
    assertThat(api.requests().count(Verb.LIST, "pods", "")).isEqualTo(1);
    await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(5)).until(() -> events.size() == 3);
    assertThat(events).containsExactly("delete b", "add d", "update c");
  }
}
