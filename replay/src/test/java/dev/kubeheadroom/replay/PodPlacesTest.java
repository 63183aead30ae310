package dev.kubeheadroom.replay;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.schemas.CheckpointCodec;
import dev.kubeheadroom.schemas.ContainerKind;
import dev.kubeheadroom.schemas.ContainerSnapshot;
import dev.kubeheadroom.schemas.JsonCodec;
import dev.kubeheadroom.schemas.NodeCheckpoint;
import dev.kubeheadroom.schemas.PodSnapshot;
import dev.kubeheadroom.schemas.ResizeStatus;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/** The byte test that spares an audit of one pod from decoding every checkpoint of the cut. */
class PodPlacesTest {
  private static final Instant AT = Instant.parse("2026-12-07T10:00:00Z");

  private static PodSnapshot pod(String namespace, String name, String node) {
    return new PodSnapshot("uid-" + name, namespace, name, node, "Running", "Burstable", "1", 1, null, 0, null,
        false, List.of(), List.of(new ContainerSnapshot("app", ContainerKind.APP, 100, 0, false, false)),
        ResizeStatus.NONE);
  }

  private static byte[] checkpoint(String node, PodSnapshot... pods) {
    return CheckpointCodec.encode(new NodeCheckpoint(node, AT, null,
        java.util.Arrays.stream(pods).map(p -> new NodeCheckpoint.CheckpointPod(p, null, false, 0)).toList()));
  }

  @Test
  void aValueIsDecodedOnlyWhenItsBytesHoldThePodsName() {
    PodPlaces web = new PodPlaces("team-a", "web-1");
    assertThat(web.mayName(checkpoint("n1", pod("team-a", "web-1", "n1")))).isTrue();
    assertThat(web.mayName(JsonCodec.encode(pod("team-a", "web-1", "n1")))).isTrue();
    assertThat(web.mayName(checkpoint("n2", pod("team-a", "web-2", "n2")))).isFalse();
    assertThat(web.mayName(JsonCodec.encode(pod("team-a", "api-1", "n1")))).isFalse();
    // a name a stored value may hold escaped: every value is decoded
    assertThat(new PodPlaces("team-a", "we\"b").mayName(new byte[] {1, 2, 3})).isTrue();
  }

  @Test
  void theCutNamesOnlyTheNodesWhoseCheckpointHoldsThePodInItsNamespace() {
    List<byte[]> values = List.of(checkpoint("n1", pod("team-a", "web-1", "n1")),
        checkpoint("n2", pod("team-b", "web-1", "n2")), checkpoint("n3", pod("team-a", "web-10", "n3")),
        checkpoint("n4"));
    List<ConsumerRecord<String, byte[]>> records = new java.util.ArrayList<>();
    for (int i = 0; i < values.size(); i++) {
      records.add(new ConsumerRecord<>("checkpoints", 0, i, "n" + (i + 1) + "@" + AT.toEpochMilli(), values.get(i)));
    }
    StoredCut cut = StoredCut.of(AT, records);
    PodPlaces web = new PodPlaces("team-a", "web-1");
    assertThat(cut.size()).isEqualTo(4);
    assertThat(cut.nodesWhere(web::mayName, web::heldBy)).isEqualTo(Set.of("n1"));
    assertThat(cut.of(Set.of("n1", "n4", "n9")).nodes()).extracting(NodeCheckpoint::node).containsExactly("n1", "n4");
  }
}
