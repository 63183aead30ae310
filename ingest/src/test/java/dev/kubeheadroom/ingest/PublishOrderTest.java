package dev.kubeheadroom.ingest;

import static dev.kubeheadroom.ingest.TestObjects.node;
import static dev.kubeheadroom.ingest.TestObjects.pod;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.ops.HeadroomMetrics;
import dev.kubeheadroom.ops.PodEvents;
import dev.kubeheadroom.projection.Emissions.Emission;
import dev.kubeheadroom.projection.Emissions.NodeEmitted;
import dev.kubeheadroom.projection.Emissions.PodEmitted;
import dev.kubeheadroom.projection.Emissions.PodRemovedEmitted;
import dev.kubeheadroom.schemas.NodeSync;
import dev.kubeheadroom.schemas.SyncMark;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.LimitRange;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.informers.impl.cache.CacheImpl;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The publish order the topology relies on (docs/design/pipeline.md, "Publish order"): a node's
 * pods come together, whatever order the informer events for them came in; a node's snapshot
 * before its pods; a re-publish waits for room in the sink only between nodes. The loop is driven
 * batch by batch here, its informer events sent as the informer would (cache first, then the
 * handler), and what it publishes recorded in order.
 */
class PublishOrderTest {
  private static final String[] NODES = {"n1", "n2", "n3"};
  private static final int PODS_PER_NODE = 12;

  private final CacheImpl<Pod> pods = cache();
  private final CacheImpl<Node> nodes = cache();
  private final WorkQueue queue = new WorkQueue();
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final IngestMetrics metrics = new IngestMetrics(registry, new HeadroomMetrics(registry));
  private final ResourceEventHandler<Pod> podEvents = EventHandlers.enqueue(queue, WorkQueue.Kind.POD, "pod", metrics);
  private final ResourceEventHandler<Node> nodeEvents =
      EventHandlers.enqueue(queue, WorkQueue.Kind.NODE, "node", metrics);
  /** What was published, in order: "node n1", "pod n1 web-3 750", "removed n2 web-4", "sync n1", and "wait". */
  private final List<String> published = new ArrayList<>();
  private KubernetesClient client;
  private InfeasibleEvents infeasible;

  @BeforeEach
  void start() {
    client = new KubernetesClientBuilder().withConfig(new ConfigBuilder().withMasterUrl("https://127.0.0.1:9").build())
        .build();
    infeasible = new InfeasibleEvents(new PodEvents(client, Clock.systemUTC(), "test", "ingest-a"), metrics,
        () -> false, ns -> true);
  }

  @AfterEach
  void stop() {
    infeasible.close();
    client.close();
  }

  @Test
  void interleavedEventsPublishEachNodesPodsTogetherAfterItsNode() throws Exception {
    IngestLoop loop = loop(1000);
    // given the pods of three nodes created in turn (n1's first pod, n2's, n3's, n1's second...),
    // a node appearing among them, then every pod's request raised in the same turn
    for (int i = 0; i < PODS_PER_NODE; i++) {
      for (String n : NODES) {
        added(podOn(n, i, "500m"));
      }
      if (i == 5) {
        for (String n : NODES) {
          nodes.put(node(n, "8"));
          nodeEvents.onAdd(node(n, "8"));
        }
      }
    }
    for (int i = 0; i < PODS_PER_NODE; i++) {
      for (String n : NODES) {
        updated(podOn(n, i, "750m"));
      }
    }

    // when the loop works what the handlers queued
    loop.work(queue.takeAll());

    // then the nodes come first, then each node's pods in one run, each pod once at its newest
    assertThat(published.subList(0, 3)).containsExactly("node n1", "node n2", "node n3");
    List<String> podRecords = published.subList(3, published.size());
    assertThat(podRecords).hasSize(NODES.length * PODS_PER_NODE).allMatch(r -> r.endsWith(" 750"));
    assertThat(runs(podRecords)).containsExactly("n1", "n2", "n3");

    // and when later changes and a delete come interleaved again
    published.clear();
    for (int i = 0; i < 4; i++) {
      for (String n : new String[] {"n3", "n1", "n2"}) {
        updated(podOn(n, i, "1"));
      }
    }
    Pod gone = podOn("n2", 7, "750m");
    pods.remove(gone);
    podEvents.onDelete(gone, false);
    loop.work(queue.takeAll());

    // then still one run per node, the removal inside its node's run
    assertThat(runs(published)).containsExactly("n1", "n2", "n3");
    assertThat(published).hasSize(13).contains("removed n2 web-n2-7");
  }

  @Test
  void aRepublishWaitsForRoomBetweenNodesNeverInsideOne() throws Exception {
    IngestLoop loop = loop(1000);
    for (int i = 0; i < PODS_PER_NODE; i++) {
      for (String n : NODES) {
        pods.put(podOn(n, i, "500m"));
      }
    }
    for (String n : NODES) {
      nodes.put(node(n, "8"));
    }

    queue.add(new WorkQueue.Resync("leader"));
    loop.work(queue.takeAll());

    // then the sink takes the re-publish's records; the nodes, each after a wait for room; the
    // pods a node at a time, a wait before each node's pods and none inside them, each node's
    // between its begin and end sync marks; then the node syncs, after the pods they list
    assertThat(compressed(published)).isEqualTo("republish,wait,node n1,wait,node n2,wait,node n3,"
        + "wait,begin n1,n1,end n1,wait,begin n2,n2,end n2,wait,begin n3,n3,end n3,wait,sync n1,sync n2,sync n3");
    for (String n : NODES) {
      assertThat(published).filteredOn(r -> r.startsWith("pod " + n + " ")).hasSize(PODS_PER_NODE);
    }
  }

  @Test
  void aNodeOfMorePodsThanHalfTheBufferIsRepublishedInSlicesOfThat() throws Exception {
    IngestLoop loop = loop(10); // room for 5 between waits
    for (int i = 0; i < PODS_PER_NODE; i++) {
      pods.put(podOn("n1", i, "500m"));
    }

    queue.add(new WorkQueue.Resync("overflow"));
    loop.work(queue.takeAll());

    assertThat(String.join(",", published).replaceAll("pod n1 web-n1-\\d+ 500", "p"))
        .isEqualTo("republish,wait,begin n1,p,p,p,p,p,wait,p,p,p,p,p,wait,p,p,end n1,wait,sync n1");
  }

  private IngestLoop loop(int bufferCapacity) {
    CacheImpl<Namespace> namespaces = cache();
    CacheImpl<LimitRange> limitRanges = cache();
    return new IngestLoop(queue, new IngestLoop.Caches(pods, nodes, namespaces, limitRanges, null, null),
        new Recorder(), infeasible, metrics, () -> true, bufferCapacity);
  }

  private void added(Pod pod) {
    pods.put(pod);
    podEvents.onAdd(pod);
  }

  private void updated(Pod pod) {
    Pod old = pods.getByKey(Cache.metaNamespaceKeyFunc(pod));
    pods.put(pod);
    podEvents.onUpdate(old, pod);
  }

  private static Pod podOn(String node, int i, String cpuRequest) {
    Pod pod = pod("team-a", "web-" + node + "-" + i, node, cpuRequest, "2");
    pod.getMetadata().setUid("uid-" + node + "-" + i);
    return pod;
  }

  /** The records joined by commas, each run of a node's pod records as the node's name. */
  private static String compressed(List<String> records) {
    List<String> out = new ArrayList<>();
    for (String r : records) {
      String item = r.startsWith("pod ") ? nodeOf(r) : r;
      if (!r.startsWith("pod ") || out.isEmpty() || !out.get(out.size() - 1).equals(item)) {
        out.add(item);
      }
    }
    return String.join(",", out);
  }

  /** The node of each run of consecutive pod records, in order ("wait" ends no run). */
  private static List<String> runs(List<String> records) {
    List<String> runs = new ArrayList<>();
    for (String r : records) {
      String node = nodeOf(r);
      if (node != null && (runs.isEmpty() || !runs.get(runs.size() - 1).equals(node))) {
        runs.add(node);
      }
    }
    return runs;
  }

  private static String nodeOf(String record) {
    return record.startsWith("pod ") || record.startsWith("removed ") ? record.split(" ")[1] : null;
  }

  private static <T extends HasMetadata> CacheImpl<T> cache() {
    return new CacheImpl<>(Cache.NAMESPACE_INDEX, Cache::metaNamespaceIndexFunc, Cache::metaNamespaceKeyFunc);
  }

  private final class Recorder implements IngestLoop.Publisher {
    @Override
    public void publish(List<Emission> emitted) {
      for (Emission e : emitted) {
        if (e instanceof NodeEmitted n) {
          published.add("node " + n.node());
        } else if (e instanceof PodEmitted p) {
          published.add("pod " + p.snapshot().node() + " " + p.snapshot().name() + " "
              + p.snapshot().containers().get(0).cpuRequestMilli());
        } else if (e instanceof PodRemovedEmitted r) {
          published.add("removed " + r.removed().node() + " " + r.removed().name());
        }
      }
    }

    @Override
    public void nodeSyncs(List<NodeSync> syncs) {
      syncs.forEach(s -> published.add("sync " + s.node()));
    }

    @Override
    public void syncMark(SyncMark mark) {
      published.add(mark.phase().name().toLowerCase(java.util.Locale.ROOT) + " " + mark.node());
    }

    @Override
    public void republishBegins() {
      published.add("republish");
    }

    @Override
    public void awaitRoom() {
      published.add("wait");
    }

    @Override
    public int recordBudget() {
      return NodeSync.DEFAULT_CHUNK_BYTES;
    }
  }
}
