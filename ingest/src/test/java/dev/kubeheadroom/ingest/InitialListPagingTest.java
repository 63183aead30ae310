package dev.kubeheadroom.ingest;

import static dev.kubeheadroom.ingest.TestObjects.node;
import static dev.kubeheadroom.ingest.TestObjects.pod;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.kubedouble.ApiRequest;
import dev.kubeheadroom.ops.HeadroomMetrics;
import dev.kubeheadroom.ops.PodEvents;
import dev.kubeheadroom.schemas.NodeSync;
import dev.kubeheadroom.schemas.SyncMark;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.informers.impl.cache.CacheImpl;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import dev.kubeheadroom.kubedouble.RequestJournal;
import dev.kubeheadroom.schemas.PodSnapshot;
import dev.kubeheadroom.testkit.KafkaBroker;
import dev.kubeheadroom.testkit.WithKafka;
import dev.kubeheadroom.schemas.NodeEvent;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The initial sync lists pods in pages of {@link Ingest#LIST_PAGE} ({@code limit}, then
 * {@code continue} until the server gives none), as client-go's reflector does, and publishes
 * every pod of every page, a node's pods together.
 */
@WithKafka
class InitialListPagingTest {
  private static final int PODS = (int) (2 * Ingest.LIST_PAGE + 7);
  private IngestHarness harness;

  @BeforeEach
  void start(KafkaBroker kafka) {
    harness = new IngestHarness(kafka);
  }

  @AfterEach
  void stop() {
    harness.close();
  }

  @Test
  void podsAreListedInPagesAndEveryPodOfEveryPageIsPublishedGroupedByNode() {
    // given: more pods than two pages hold
    for (int i = 0; i < PODS; i++) {
      harness.seed(pod("team-" + (i % 3), "web-" + i, "node-" + (i % 5), "100m", "1"));
    }

    // when
    harness.startLeader("ingest-a");

    // then: three pages, the first without a continue token, each asking for LIST_PAGE
    List<ApiRequest> podLists = harness.api.requests().entries().stream().map(RequestJournal.Entry::request)
        .filter(r -> r.verb() == ApiRequest.Verb.LIST && r.resource().equals("pods")).toList();
    assertThat(podLists).hasSize(3).allSatisfy(r ->
        assertThat(r.query()).containsEntry("limit", String.valueOf(Ingest.LIST_PAGE)));
    assertThat(podLists.get(0).query()).doesNotContainKey("continue");
    assertThat(podLists.subList(1, 3)).allSatisfy(r -> assertThat(r.query().get("continue")).isNotBlank());
    Set<String> published = new HashSet<>();
    List<ConsumerRecord<String, NodeEvent>> records = harness.podsUntil(batch -> {
      batch.stream().map(r -> r.value()).filter(v -> v instanceof PodSnapshot)
          .forEach(v -> published.add(((PodSnapshot) v).name()));
      return published.size() >= PODS;
    });
    assertThat(published).hasSize(PODS);

    // and the re-publish sends a node's pods together (the seeded order, and the cache's, spreads
    // each node's over the whole list): a topology filling an empty booking reads all of a node's
    // pods within one debounce period and decides the node once, on all of them, instead of on the
    // few read before it went quiet (docs/benchmarks.md, design point)
    Map<Integer, List<String>> nodesByPartition = new TreeMap<>();
    records.stream().filter(r -> r.value() instanceof PodSnapshot).limit(PODS)
        .forEach(r -> nodesByPartition.computeIfAbsent(r.partition(), p -> new ArrayList<>()).add(r.key()));
    nodesByPartition.forEach((partition, nodes) -> {
      assertThat(runs(nodes)).as("partition %d: each node's pods in one run", partition).doesNotHaveDuplicates();
    });
  }

  /**
   * The interleaving the test above meets by chance, played in order: the informer still
   * delivers the initial list's events when the new leader opens its sink, so the loop works
   * some pod keys before the leadership's re-publish and the rest beside it.
   */
  @Test
  void listEventsWorkedBeforeTheLeadersRepublishDoNotSplitANodesPods() throws Exception {
    // given two nodes' pods in the informer's cache, and a loop publishing to Kafka
    CacheImpl<Pod> pods = cache();
    CacheImpl<Node> nodes = cache();
    List<String> keys = new ArrayList<>();
    for (String n : List.of("node-a", "node-b")) {
      nodes.put(node(n, "8"));
      for (int i = 0; i < 6; i++) {
        Pod pod = pod("team-a", "web-" + n + "-" + i, n, "100m", "1");
        pod.getMetadata().setUid("uid-" + n + "-" + i);
        pods.put(pod);
        keys.add(Cache.metaNamespaceKeyFunc(pod));
      }
    }
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    IngestMetrics metrics = new IngestMetrics(registry, new HeadroomMetrics(registry));
    IngestSettings settings = harness.settings("ingest-a");
    WorkQueue queue = new WorkQueue();
    try (KubernetesClient client = harness.api.newClient();
        KafkaSink sink = new KafkaSink(settings, metrics, reason -> { }, KafkaSink.DEFAULT_BUFFER_BYTES);
        InfeasibleEvents infeasible = new InfeasibleEvents(
            new PodEvents(client, Clock.systemUTC(), "test", "ingest-a"), metrics, () -> false, ns -> true)) {
      IngestLoop loop = new IngestLoop(queue, new IngestLoop.Caches(pods, nodes, cache(), cache(), null, null),
          new IngestOutput(settings.topics(), sink, metrics), infeasible, metrics, () -> true,
          settings.bufferCapacity());

      // when the leader opens its sink, the loop works a batch of list events (half of node-b's
      // pods), then the leadership's re-publish comes with the rest of the list's events
      sink.open(7);
      keys.subList(9, 12).forEach(k -> queue.add(new WorkQueue.Key(WorkQueue.Kind.POD, k)));
      loop.work(queue.takeAll());
      queue.add(new WorkQueue.Resync("leader"));
      keys.subList(0, 9).forEach(k -> queue.add(new WorkQueue.Key(WorkQueue.Kind.POD, k)));
      loop.work(queue.takeAll());

      // then each pod is published once, each node's in one run
      List<ConsumerRecord<String, NodeEvent>> records = harness.podsUntil(batch -> batch.stream()
          .filter(r -> r.value() instanceof NodeSync).count() >= 2);
      List<String> snapshots = records.stream()
          .filter(r -> r.value() instanceof PodSnapshot).map(ConsumerRecord::key).toList();
      assertThat(snapshots).hasSize(12);
      assertThat(runs(snapshots)).containsExactly("node-a", "node-b");

      // and each node's pods lie between its begin and end sync marks, of the leadership's epoch
      List<String> bracketed = records.stream().filter(r -> !(r.value() instanceof NodeSync)).map(r ->
          r.value() instanceof SyncMark m ? m.phase() + " " + m.node() + " " + m.epoch() : r.key()).toList();
      assertThat(runs(bracketed)).containsExactly(
          "BEGIN node-a 7", "node-a", "END node-a 7", "BEGIN node-b 7", "node-b", "END node-b 7");
    }
  }

  private static List<String> runs(List<String> nodes) {
    List<String> runs = new ArrayList<>();
    for (String node : nodes) {
      if (runs.isEmpty() || !runs.get(runs.size() - 1).equals(node)) {
        runs.add(node);
      }
    }
    return runs;
  }

  private static <T extends HasMetadata> CacheImpl<T> cache() {
    return new CacheImpl<>(Cache.NAMESPACE_INDEX, Cache::metaNamespaceIndexFunc, Cache::metaNamespaceKeyFunc);
  }
}
