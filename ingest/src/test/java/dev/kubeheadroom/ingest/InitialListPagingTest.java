package dev.kubeheadroom.ingest;

import static dev.kubeheadroom.ingest.TestObjects.pod;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.kubedouble.ApiRequest;
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
      List<String> runs = new ArrayList<>();
      for (String node : nodes) {
        if (runs.isEmpty() || !runs.get(runs.size() - 1).equals(node)) {
          runs.add(node);
        }
      }
      assertThat(runs).as("partition %d: each node's pods in one run", partition).doesNotHaveDuplicates();
    });
  }
}
