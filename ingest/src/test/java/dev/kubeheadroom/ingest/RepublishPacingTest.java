package dev.kubeheadroom.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.kubeheadroom.ops.HeadroomMetrics;
import dev.kubeheadroom.ops.PodEvents;
import dev.kubeheadroom.projection.ClusterProjector;
import dev.kubeheadroom.schemas.KafkaClientSettings;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.informers.impl.cache.CacheImpl;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A new leader's re-publish waits for room in the sink's buffer only between nodes: a wait inside
 * a node's pods, longer than the topology's debounce, had the node decided on part of them
 * (a design-point run: 6 nodes grown to the cap and shrunk back during the initial sync).
 */
class RepublishPacingTest {

  @Test
  void theRepublishWaitsForRoomBetweenNodesNeverInsideOne() throws Exception {
    // given a sink whose Kafka never answers (nothing listens on port 9), room for 8 records (it
    // waits above 4), and three nodes of three pods each in the informer's cache
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    IngestMetrics metrics = new IngestMetrics(registry, new HeadroomMetrics(registry));
    IngestSettings settings = IngestSettings.defaults(KafkaClientSettings.of("127.0.0.1:9"), "ingest-a")
        .with(b -> b.bufferCapacity = 8);
    CacheImpl<Pod> cache = new CacheImpl<>(Cache.NAMESPACE_INDEX, Cache::metaNamespaceIndexFunc, Cache::metaNamespaceKeyFunc);
    for (String node : new String[] {"n1", "n2", "n3"}) {
      for (int i = 0; i < 3; i++) {
        // names that interleave the nodes in name order, as a LIST's namespace/name order does
        Pod pod = TestObjects.pod("team-" + i, "web-" + node, node, "500m", "1");
        pod.getMetadata().setUid("uid-" + i + "-" + node);
        cache.put(pod);
      }
    }
    KafkaSink sink = new KafkaSink(settings, metrics, reason -> { });
    try (KubernetesClient client = new KubernetesClientBuilder()
        .withConfig(new ConfigBuilder().withMasterUrl("https://127.0.0.1:9").build()).build()) {
      sink.open(0);
      InfeasibleEvents infeasible = new InfeasibleEvents(new PodEvents(client, Clock.systemUTC(), "test", "ingest-a"),
          metrics, () -> false, pod -> true);
      IngestOutput output = new IngestOutput(settings.topics(), sink, metrics, infeasible);
      ClusterProjector projector = new ClusterProjector(output,
          ns -> cache.byIndex(Cache.NAMESPACE_INDEX, ns), ClusterProjector.AppliedLimits.NONE);
      SnapshotPublisher publisher = new SnapshotPublisher(projector, output, sink, metrics, cache, infeasible);

      // when the re-publish runs until the buffer stops it
      Thread republish = new Thread(() -> {
        try {
          publisher.republishAll();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      });
      republish.setDaemon(true);
      republish.start();
      await().atMost(Duration.ofSeconds(10)).until(() -> sink.buffered() >= 5);
      Thread.sleep(300); // it waits now: Kafka never takes a record

      // then it stopped after two whole nodes (6 records), not inside the second (5)
      assertThat(sink.buffered()).isEqualTo(6);
      assertThat(publisher.publishedByNode()).containsOnlyKeys("n1", "n2");
      assertThat(publisher.publishedByNode().values()).allSatisfy(uids -> assertThat(uids).hasSize(3));
      republish.interrupt();
    } finally {
      sink.close(Duration.ofMillis(100)); // nothing to deliver to: do not wait the default 5 s for it
    }
  }
}
