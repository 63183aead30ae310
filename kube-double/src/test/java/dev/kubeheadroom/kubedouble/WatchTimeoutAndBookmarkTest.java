package dev.kubeheadroom.kubedouble;

import static dev.kubeheadroom.kubedouble.TestPods.NS;
import static dev.kubeheadroom.kubedouble.TestPods.burstable;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.kubeheadroom.kubedouble.ApiRequest.Verb;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Server-side watch timeouts and BOOKMARK events. */
class WatchTimeoutAndBookmarkTest {
  private static final String PODS = "/api/v1/namespaces/" + NS + "/pods?watch=true";
  private ApiServerDouble api;

  @BeforeEach
  void start() {
    api = ApiServerDouble.start();
    api.client().pods().inNamespace(NS).resource(burstable("a", "n1", "100m", "1")).create();
  }

  @AfterEach
  void stop() {
    api.close();
  }

  private List<ApiRequest> watchRequests() {
    return api.requests().entries().stream().map(RequestJournal.Entry::request)
        .filter(r -> r.verb() == Verb.WATCH && r.resource().equals("pods")).toList();
  }

  // endpoints/handlers/get.go ListResource (request.GetTimeoutForWatch): the server ends a watch
  // cleanly after its timeoutSeconds; no ERROR event, the stream just closes.
  @Test
  void aWatchEndsCleanlyAfterItsTimeoutSeconds() throws Exception {
    try (RawWatch watch = RawWatch.open(api, PODS + "&timeoutSeconds=1")) {
      assertThat(watch.closed.get(15, TimeUnit.SECONDS)).isEqualTo(1000);
      assertThat(watch.summary()).containsExactly("ADDED a");
    }
  }

  // Same handler: without timeoutSeconds (or with a longer one) the server's own limit ends the
  // watch (kube-apiserver: a random 1-2x --min-request-timeout; the double: watchTimeout).
  @Test
  void theServersOwnLimitEndsAWatchThatAsksForLonger() throws Exception {
    api.watchTimeout(Duration.ofSeconds(1));
    try (RawWatch watch = RawWatch.open(api, PODS + "&timeoutSeconds=600")) {
      assertThat(watch.closed.get(15, TimeUnit.SECONDS)).isEqualTo(1000);
    }
  }

  // What a timeout means for an informer (fabric8 AbstractWatchManager.watchEnded, Reflector):
  // it reconnects from the last resourceVersion it saw, without relisting, and misses nothing.
  @Test
  void anInformerWhoseWatchTimesOutReconnectsFromItsLastResourceVersionWithoutRelisting() {
    // given
    api.watchTimeout(Duration.ofSeconds(1));
    SharedIndexInformer<Pod> informer = api.newClient().pods().inNamespace(NS).inform();
    try {
      await().atMost(Duration.ofSeconds(20)).until(informer::hasSynced);
      // when
      await().atMost(Duration.ofSeconds(30)).until(() -> watchRequests().size() >= 3);
      api.client().pods().inNamespace(NS).resource(burstable("b", "n1", "100m", "1")).create();
      // then
      await().atMost(Duration.ofSeconds(20)).until(() -> informer.getStore().getByKey(NS + "/b") != null);
      assertThat(api.requests().count(Verb.LIST, "pods", "")).isEqualTo(1);
      assertThat(watchRequests().subList(1, watchRequests().size()))
          .allSatisfy(r -> assertThat(r.query().get("resourceVersion")).isNotEmpty().isNotEqualTo("0"));
      assertThat(informer.getStore().list()).extracting(p -> p.getMetadata().getName())
          .containsExactlyInAnyOrder("a", "b");
    } finally {
      informer.close();
    }
  }

  // cacher.go (dispatchEvent / bookmark timer): watchers that sent allowWatchBookmarks=true get
  // BOOKMARK events whose object is the watched kind with only metadata.resourceVersion; other
  // watchers never get one.
  @Test
  void bookmarksArriveWhenAskedAndNotOtherwise() throws Exception {
    api.bookmarkInterval(Duration.ofMillis(200));
    try (RawWatch asked = RawWatch.open(api, PODS + "&allowWatchBookmarks=true");
         RawWatch notAsked = RawWatch.open(api, PODS)) {
      await().atMost(Duration.ofSeconds(15)).until(() -> asked.summary().stream()
          .filter("BOOKMARK"::equals).count() >= 3);
      JsonNode bookmark = asked.events.stream().filter(e -> e.path("type").asText().equals("BOOKMARK"))
          .findFirst().orElseThrow().path("object");
      assertThat(bookmark.path("kind").asText()).isEqualTo("Pod");
      assertThat(bookmark.path("metadata").path("resourceVersion").asText()).isEqualTo(String.valueOf(api.revision()));
      assertThat(bookmark.path("metadata").size()).isEqualTo(1);
      assertThat(bookmark.has("spec")).isFalse();
      assertThat(notAsked.summary()).containsExactly("ADDED a");
    }
  }

  // fabric8 ends an informer on a watch object it cannot decode, and decodes by kind: watches on a
  // resource nothing was ever written to get no bookmark from the double (whose kind it cannot
  // know), and the informer keeps running to see the first object.
  @Test
  void anInformerOnAResourceNeverWrittenSurvivesBookmarkTicks() {
    api.bookmarkInterval(Duration.ofMillis(100));
    SharedIndexInformer<ConfigMap> informer = api.newClient().configMaps().inAnyNamespace().inform();
    try {
      await().atMost(Duration.ofSeconds(20)).until(informer::hasSynced);
      long ticks = System.nanoTime() + Duration.ofMillis(500).toNanos();
      await().atMost(Duration.ofSeconds(5)).until(() -> System.nanoTime() > ticks);
      api.client().configMaps().inNamespace(NS).resource(new ConfigMapBuilder().withNewMetadata().withName("m")
          .endMetadata().build()).create();
      await().atMost(Duration.ofSeconds(20)).until(() -> informer.getStore().list().size() == 1);
      assertThat(informer.isRunning()).isTrue();
    } finally {
      informer.close();
    }
  }

  // A bookmark's resourceVersion is a point to resume from: a watch from it gets only what came
  // after (watch_cache.go), so a client that only saw bookmarks does not replay old events.
  @Test
  void aWatchResumedFromABookmarkGetsOnlyLaterChanges() throws Exception {
    api.bookmarkInterval(Duration.ofMillis(200));
    String bookmarked;
    try (RawWatch first = RawWatch.open(api, PODS + "&allowWatchBookmarks=true")) {
      await().atMost(Duration.ofSeconds(15)).until(() -> first.summary().contains("BOOKMARK"));
      bookmarked = first.events.stream().filter(e -> e.path("type").asText().equals("BOOKMARK"))
          .findFirst().orElseThrow().path("object").path("metadata").path("resourceVersion").asText();
    }
    api.client().pods().inNamespace(NS).resource(burstable("b", "n1", "100m", "1")).create();
    try (RawWatch resumed = RawWatch.open(api, PODS + "&resourceVersion=" + bookmarked)) {
      await().atMost(Duration.ofSeconds(10)).until(() -> !resumed.changes().isEmpty());
      await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(5)).until(() -> resumed.changes().size() == 1);
      assertThat(resumed.summary()).containsExactly("ADDED b");
    }
  }
}
