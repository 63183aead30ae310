package dev.kubeheadroom.schemas;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The ingest epoch on node events (split-brain fencing): additive, omitted when absent. */
class EpochFormatTest {
  private final JsonSerde<NodeEvent> serde = HeadroomSerdes.nodeEvents();

  private String json(NodeEvent e) {
    return new String(serde.serialize("t", e), StandardCharsets.UTF_8);
  }

  @Test
  void anUnstampedEventIsWrittenExactlyAsBeforeEpochsExisted() {
    assertThat(json(new NodeSync("n1", List.of("b", "a"))))
        .isEqualTo("{\"type\":\"node-sync\",\"node\":\"n1\",\"podUids\":[\"a\",\"b\"],\"schemaVersion\":1}");
    assertThat(json(new NodeRemoved("n1"))).isEqualTo("{\"type\":\"node-removed\",\"node\":\"n1\",\"schemaVersion\":1}");
  }

  @Test
  void aRecordWrittenBeforeEpochsReadsAsUnfenced() {
    NodeEvent e = serde.deserialize("t", "{\"type\":\"node\",\"node\":\"n1\",\"allocatableMilli\":8000,\"os\":\"linux\",\"staticCpuManager\":false,\"labels\":{},\"schemaVersion\":1}"
        .getBytes(StandardCharsets.UTF_8));
    assertThat(e).isEqualTo(new NodeSnapshot("n1", 8000, "linux", false, Map.of()));
    assertThat(e.epoch()).isZero();
  }

  @Test
  void aStampedEventCarriesItsEpochThroughTheTopic() {
    NodeEvent stamped = new PodRemoved("u1", "ns", "p", "n1").withEpoch(1_764_000_000_000_003L);
    assertThat(json(stamped)).contains("\"epoch\":1764000000000003");
    assertThat(serde.deserialize("t", serde.serialize("t", stamped))).isEqualTo(stamped);
    assertThat(stamped.withEpoch(0)).isEqualTo(new PodRemoved("u1", "ns", "p", "n1"));
  }

  @Test
  void outcomesCarryNoEpochAndANegativeOneIsRefused() {
    ResizeOutcome outcome = new ResizeOutcome("n1", "u1", "ns", "p", OutcomeResult.APPLIED, 100,
        java.time.Instant.parse("2026-01-01T00:00:00Z"), "");
    assertThat(outcome.withEpoch(5)).isSameAs(outcome);
    assertThat(json(outcome)).doesNotContain("epoch");
    assertThatThrownBy(() -> serde.deserialize("t",
        "{\"type\":\"node-removed\",\"node\":\"n1\",\"epoch\":-1,\"schemaVersion\":1}".getBytes(StandardCharsets.UTF_8)))
        .isInstanceOf(SchemaException.class);
  }

  @Test
  void theEpochIsNotPartOfAPodsBooking() {
    PodSnapshot pod = Samples.pod();
    assertThat(pod.withEpoch(7).sameBooking(pod)).isTrue();
    assertThat(pod.withEpoch(7).withContainers(pod.containers()).epoch()).isEqualTo(7);
  }
}
