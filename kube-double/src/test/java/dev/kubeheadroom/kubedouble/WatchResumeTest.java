package dev.kubeheadroom.kubedouble;

import static dev.kubeheadroom.kubedouble.TestPods.NS;
import static dev.kubeheadroom.kubedouble.TestPods.burstable;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** resourceVersion as one counter, and watches that resume from it (or answer 410). */
class WatchResumeTest {
  private static final String PODS = "/api/v1/namespaces/" + NS + "/pods?watch=true";
  private ApiServerDouble api;

  @BeforeEach
  void start() {
    api = ApiServerDouble.start();
    // a first write elsewhere, so the revisions the tests resume from are not "0" ("any")
    api.client().configMaps().inNamespace("other").resource(new ConfigMapBuilder()
        .withNewMetadata().withName("seed").endMetadata().build()).create();
  }

  @AfterEach
  void stop() {
    api.close();
  }

  private void create(String name) {
    api.client().pods().inNamespace(NS).resource(burstable(name, "n1", "100m", "1")).create();
  }

  private void label(String name, String value) {
    api.client().pods().inNamespace(NS).withName(name).edit(p -> {
      p.getMetadata().getLabels().put("tier", value);
      return p;
    });
  }

  private static List<Long> revisions(List<JsonNode> events) {
    return events.stream().map(RawWatch::revisionOf).toList();
  }

  // etcd3/store.go: every write's resourceVersion is etcd's one revision counter, across kinds and
  // namespaces, and a LIST answers the current revision; a delete is a revision of its own
  // (etcd3/watcher.go stamps the DELETED object with it).
  @Test
  void everyWriteTakesTheNextRevisionOfOneCounterAndAListAnswersTheCurrentOne() {
    // when
    long pod = Long.parseLong(api.client().pods().inNamespace(NS)
        .resource(burstable("a", "n1", "100m", "1")).create().getMetadata().getResourceVersion());
    long map = Long.parseLong(api.client().configMaps().inNamespace("elsewhere").resource(new ConfigMapBuilder()
        .withNewMetadata().withName("m").endMetadata().addToData("k", "v").build()).create()
        .getMetadata().getResourceVersion());
    api.client().configMaps().inNamespace("elsewhere").withName("m").delete();
    // then
    assertThat(map).isGreaterThan(pod);
    assertThat(api.revision()).isGreaterThan(map);
    assertThat(api.client().pods().inAnyNamespace().list().getMetadata().getResourceVersion())
        .isEqualTo(String.valueOf(api.revision()));
    assertThat(api.client().configMaps().inAnyNamespace().list().getMetadata().getResourceVersion())
        .isEqualTo(String.valueOf(api.revision()));
  }

  // cacher/watch_cache.go getAllEventsSinceLocked: a watch from resourceVersion X first gets every
  // retained change after X, in order, typed as it happened, then live events; the DELETED event
  // carries the object's last state at the delete's revision.
  @Test
  void aWatchResumedFromAResourceVersionSendsEveryLaterChangeInOrderThenLiveOnes() throws Exception {
    // given
    long from = api.revision();
    create("a");
    create("b");
    label("a", "web");
    api.client().pods().inNamespace(NS).withName("b").delete();
    long deletedAt = api.revision();
    // when
    try (RawWatch watch = RawWatch.open(api, PODS + "&resourceVersion=" + from)) {
      await().atMost(Duration.ofSeconds(10)).until(() -> watch.changes().size() == 4);
      create("c");
      // then
      await().atMost(Duration.ofSeconds(10)).until(() -> watch.changes().size() == 5);
      assertThat(watch.changes()).extracting(e -> e.path("type").asText() + " "
              + e.path("object").path("metadata").path("name").asText())
          .containsExactly("ADDED a", "ADDED b", "MODIFIED a", "DELETED b", "ADDED c");
      assertThat(revisions(watch.changes())).isSorted().doesNotHaveDuplicates();
      JsonNode deleted = watch.changes().get(3).path("object");
      assertThat(deleted.path("metadata").path("resourceVersion").asText()).isEqualTo(String.valueOf(deletedAt));
      assertThat(deleted.path("spec").path("nodeName").asText()).isEqualTo("n1");
      assertThat(watch.changes().get(2).path("object").path("metadata").path("labels").path("tier").asText())
          .isEqualTo("web");
    }
  }

  // Same rule, through fabric8's own watch: resuming from the revision of an event already seen
  // sends only what came after it, so a reconnecting client sees no event twice.
  @Test
  void aFabric8WatchResumedFromTheLastSeenRevisionGetsNoDuplicates() {
    // given
    create("a");
    long seen = api.revision();
    create("b");
    label("a", "web");
    List<String> events = new CopyOnWriteArrayList<>();
    // when
    Watch watch = api.client().pods().inNamespace(NS).watch(
        new ListOptionsBuilder().withResourceVersion(String.valueOf(seen)).build(), new Watcher<Pod>() {
          @Override
          public void eventReceived(Action action, Pod pod) {
            events.add(action + " " + pod.getMetadata().getName() + "@" + pod.getMetadata().getResourceVersion());
          }

          @Override
          public void onClose(WatcherException cause) {
            events.add("closed " + cause);
          }
        });
    try {
      create("c");
      // then: the bound is generous: fabric8 decodes watch events on a vert.x event loop, which a
      // cold Jackson blocks for seconds on a loaded machine (vert.x "Thread blocked" warnings in
      // local runs at load 70), and it reconnects a failed watch with a doubling backoff (1 s,
      // 2 s, 4 s ...). The assertion's message lists what did arrive, so a lost event reads
      // differently from a slow one: that is how loaded CI runs showed only "ADDED c" arriving,
      // the two replayed changes lost by fabric8's Vert.x client registering its WebSocket
      // handlers after the handshake (the build now uses the JDK client: KubernetesHttpClientTest)
      await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(events).hasSizeGreaterThanOrEqualTo(3));
      await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(5)).until(() -> events.size() == 3);
      assertThat(events).extracting(e -> e.split("@")[0])
          .containsExactly("ADDED b", "MODIFIED a", "ADDED c");
    } finally {
      watch.close();
    }
  }

  // cacher.go Watch: a resourceVersion older than the history is not a failed request but a watch
  // whose one event is ERROR with a Status 410 Expired "too old resource version: X (Y)"; then it ends.
  @Test
  void aResumeFromBeforeACompactionGetsOneError410AndTheWatchEnds() throws Exception {
    // given
    long from = api.revision();
    create("a");
    create("b");
    api.compactHistory();
    // when
    try (RawWatch watch = RawWatch.open(api, PODS + "&resourceVersion=" + from)) {
      // then
      assertThat(watch.closed.get(10, TimeUnit.SECONDS)).isEqualTo(1000);
      assertThat(watch.events).hasSize(1);
      JsonNode status = watch.events.get(0).path("object");
      assertThat(watch.events.get(0).path("type").asText()).isEqualTo("ERROR");
      assertThat(status.path("kind").asText()).isEqualTo("Status");
      assertThat(status.path("code").asInt()).isEqualTo(410);
      assertThat(status.path("reason").asText()).isEqualTo("Expired");
      assertThat(status.path("message").asText())
          .isEqualTo("too old resource version: " + from + " (" + api.revision() + ")");
    }
  }

  // watch_cache.go keeps a bounded window of events: once older ones fall out, resuming from
  // before the window is 410 while resuming inside it still works.
  @Test
  void aBoundedHistoryForgetsItsOldestChanges() throws Exception {
    // given
    api.watchHistoryLimit(2);
    long from = api.revision();
    create("a");
    create("b");
    long inside = api.revision();
    create("c");
    create("d");
    // when
    try (RawWatch tooOld = RawWatch.open(api, PODS + "&resourceVersion=" + from);
         RawWatch recent = RawWatch.open(api, PODS + "&resourceVersion=" + inside)) {
      // then
      assertThat(tooOld.closed.get(10, TimeUnit.SECONDS)).isEqualTo(1000);
      assertThat(tooOld.events).extracting(e -> e.path("object").path("code").asInt()).containsExactly(410);
      await().atMost(Duration.ofSeconds(10)).until(() -> recent.changes().size() == 2);
      assertThat(recent.summary()).containsExactly("ADDED c", "ADDED d");
    }
  }

  // watch_cache.go: resourceVersion "" or "0" starts from the current state: a synthetic ADDED for
  // every object the watch selects, then live events.
  @Test
  void aWatchWithoutAResourceVersionGetsAddedForEveryCurrentObjectThenLiveEvents() throws Exception {
    // given
    create("a");
    create("b");
    api.client().pods().inNamespace(NS).withName("b").delete();
    // when
    try (RawWatch absent = RawWatch.open(api, PODS);
         RawWatch zero = RawWatch.open(api, PODS + "&resourceVersion=0")) {
      await().atMost(Duration.ofSeconds(10)).until(() -> absent.changes().size() == 1 && zero.changes().size() == 1);
      label("a", "web");
      // then
      await().atMost(Duration.ofSeconds(10)).until(() -> absent.changes().size() == 2 && zero.changes().size() == 2);
      assertThat(absent.summary()).containsExactly("ADDED a", "MODIFIED a");
      assertThat(zero.summary()).containsExactly("ADDED a", "MODIFIED a");
    }
  }

  // cacher/cache_watcher.go convertToWatchEvent: with a selector, an object that starts matching is
  // ADDED, one that stops matching is DELETED (its last matching state, at the change's revision),
  // in replayed history as in live events.
  @Test
  void aSelectingResumeSendsAddedAndDeletedAsObjectsEnterAndLeaveTheSelection() throws Exception {
    // given
    create("a");
    long from = api.revision();
    label("a", "web");
    label("a", "db");
    long left = api.revision();
    // when
    try (RawWatch watch = RawWatch.open(api, PODS + "&labelSelector=tier%3Dweb&resourceVersion=" + from)) {
      // then
      await().atMost(Duration.ofSeconds(10)).until(() -> watch.changes().size() == 2);
      assertThat(watch.summary()).containsExactly("ADDED a", "DELETED a");
      JsonNode deleted = watch.changes().get(1).path("object").path("metadata");
      assertThat(deleted.path("labels").path("tier").asText()).isEqualTo("web");
      assertThat(deleted.path("resourceVersion").asText()).isEqualTo(String.valueOf(left));
    }
  }
}
