package dev.kubeheadroom.schemas;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RecordRoundTripTest {
  private final JsonSerde<NodeEvent> events = HeadroomSerdes.nodeEvents();

  @Test
  void everyNodeEventVariantSurvivesTheWireUnchanged() {
    for (NodeEvent event : Samples.nodeEvents()) {
      byte[] bytes = events.serialize("t", event);
      assertThat(events.deserialize("t", bytes)).as(event.getClass().getSimpleName()).isEqualTo(event);
    }
  }

  @Test
  void decisionsConfigNamespacesAndDeadLettersSurviveTheWire() {
    NodeDecision decision = Samples.decision();
    assertThat(roundTrip(decision, NodeDecision.class)).isEqualTo(decision);
    assertThat(roundTrip(ClusterConfig.DEFAULTS, ClusterConfig.class)).isEqualTo(ClusterConfig.DEFAULTS);
    NamespaceInfo ns = new NamespaceInfo("team-a", Map.of(HeadroomKeys.MODE_LABEL, "managed"), 4000, 6000, 2500);
    assertThat(roundTrip(ns, NamespaceInfo.class)).isEqualTo(ns);
    DeadLetter dl = new DeadLetter("headroom.pods", 2, 17, "n1", "bad json", "{", Samples.AT);
    assertThat(roundTrip(dl, DeadLetter.class)).isEqualTo(dl);
  }

  @Test
  void everyRecordCarriesItsSchemaVersionAndTypeTag() throws Exception {
    JsonNode tree = JsonCodec.mapper().readTree(JsonCodec.encode(Samples.pod()));
    assertThat(tree.get("schemaVersion").asInt()).isEqualTo(Versioned.SCHEMA_VERSION);
    assertThat(tree.get("type").asText()).isEqualTo("pod");
    JsonNode decision = JsonCodec.mapper().readTree(JsonCodec.encode(Samples.decision()));
    assertThat(decision.get("schemaVersion").asInt()).isEqualTo(1);
  }

  @Test
  void anOldReaderIgnoresFieldsANewerWriterAdded() throws Exception {
    ObjectNode tree = (ObjectNode) JsonCodec.mapper().readTree(JsonCodec.encode(Samples.pod()));
    tree.put("schemaVersion", 2).put("someFutureField", "x").putObject("nested").put("a", 1);
    NodeEvent read = events.deserialize("t", JsonCodec.mapper().writeValueAsBytes(tree));
    assertThat(read).isEqualTo(Samples.pod());
  }

  @Test
  void aPodWrittenBeforePodLevelResourcesReadsAsWithout() throws Exception {
    // given a pod record as an older ingest wrote it: no podLevelResources field
    ObjectNode tree = (ObjectNode) JsonCodec.mapper().readTree(JsonCodec.encode(Samples.pod()));
    assertThat(tree.get("podLevelResources").asBoolean(true)).isFalse();
    tree.remove("podLevelResources");
    // when
    NodeEvent read = events.deserialize("t", JsonCodec.mapper().writeValueAsBytes(tree));
    // then
    assertThat(read).isEqualTo(Samples.pod());
  }

  @Test
  void aNamespaceWrittenBeforeThePodMaxAndRatioReadsWithoutThem() {
    // given a schema-1 namespace record as an older ingest wrote it (no pod max, no ratio)
    byte[] old = ("{\"schemaVersion\":1,\"name\":\"team-a\",\"labels\":{},"
        + "\"limitRangeMaxCpuMilli\":4000}").getBytes(StandardCharsets.UTF_8);
    // when
    NamespaceInfo read = JsonCodec.decode(old, NamespaceInfo.class);
    // then the fields it lacks are 0: no such cap
    assertThat(read).isEqualTo(new NamespaceInfo("team-a", Map.of(), 4000, 0, 0));
    assertThat(read.limitRangeCaps()).isEqualTo(new dev.kubeheadroom.policy.LimitRangeCaps(4000, 0, 0));
  }

  @Test
  void aNamespaceRecordCarriesNoDerivedFields() throws Exception {
    JsonNode tree = JsonCodec.mapper().readTree(JsonCodec.encode(new NamespaceInfo("a", Map.of(), 1, 2, 3)));
    assertThat(fieldNames(tree)).containsExactlyInAnyOrder("schemaVersion", "name", "labels",
        "limitRangeMaxCpuMilli", "limitRangePodMaxCpuMilli", "limitRangeCpuRatioMilli");
  }

  private static List<String> fieldNames(JsonNode tree) {
    List<String> names = new java.util.ArrayList<>();
    tree.fieldNames().forEachRemaining(names::add);
    return names;
  }

  @Test
  void equalRecordsEncodeToEqualBytesWhateverTheMapOrder() {
    var a = new NodeSnapshot("n1", 1000, "linux", false, Map.of("b", "2", "a", "1", "c", "3"));
    var b = new NodeSnapshot("n1", 1000, "linux", false, new java.util.LinkedHashMap<>(Map.of("c", "3", "a", "1", "b", "2")));
    assertThat(JsonCodec.encode(a)).isEqualTo(JsonCodec.encode(b));
  }

  @Test
  void malformedJsonIsATypedErrorNeverANull() {
    assertThatThrownBy(() -> events.deserialize("t", "{not json".getBytes(StandardCharsets.UTF_8)))
        .isInstanceOf(SchemaException.class).hasMessageStartingWith("NodeEvent:");
    assertThatThrownBy(() -> events.deserialize("t", "null".getBytes(StandardCharsets.UTF_8)))
        .isInstanceOf(SchemaException.class);
    assertThatThrownBy(() -> JsonCodec.decode(new byte[0], NodeEvent.class))
        .isInstanceOf(SchemaException.class).hasMessageContaining("empty");
  }

  @Test
  void anUnknownVariantIsATypedError() {
    byte[] bytes = "{\"type\":\"martian\",\"node\":\"n1\"}".getBytes(StandardCharsets.UTF_8);
    assertThatThrownBy(() -> events.deserialize("t", bytes)).isInstanceOf(SchemaException.class)
        .hasMessageContaining("martian");
  }

  @Test
  void aMissingRequiredFieldIsNamedInTheError() {
    byte[] bytes = "{\"type\":\"pod-removed\",\"uid\":\"u\"}".getBytes(StandardCharsets.UTF_8);
    assertThatThrownBy(() -> events.deserialize("t", bytes)).isInstanceOf(SchemaException.class)
        .hasMessageContaining("node is required");
  }

  @Test
  void aWrongTypeIsATypedError() {
    byte[] bytes = "{\"type\":\"node\",\"node\":\"n1\",\"allocatableMilli\":\"lots\"}"
        .getBytes(StandardCharsets.UTF_8);
    assertThatThrownBy(() -> events.deserialize("t", bytes)).isInstanceOf(SchemaException.class)
        .hasMessageContaining("allocatableMilli");
  }

  @Test
  void aNullPayloadIsATombstone() {
    assertThat(events.deserialize("t", null)).isNull();
    assertThat(events.serialize("t", null)).isNull();
  }

  @Test
  void effectiveRequestCountsSidecarsAndTheLargestInitContainer() {
    // app 500 + sidecar 100 = 600 running; init 2000 runs before the sidecar starts → 2000.
    assertThat(Samples.pod().effectiveRequestMilli()).isEqualTo(2000);
    PodSnapshot small = Samples.pod().withContainers(List.of(
        new ContainerSnapshot("proxy", ContainerKind.SIDECAR, 100, 0, false, false),
        new ContainerSnapshot("init", ContainerKind.INIT, 300, 0, false, false),
        new ContainerSnapshot("app", ContainerKind.APP, 500, 0, false, false)));
    // init 300 runs beside the already-started sidecar: 400 < 600 running.
    assertThat(small.effectiveRequestMilli()).isEqualTo(600);
    assertThat(small.limitBearingContainers()).extracting(ContainerSnapshot::name)
        .containsExactly("proxy", "app");
  }

  @Test
  void sameBookingIgnoresOnlyTheResourceVersion() {
    PodSnapshot pod = Samples.pod();
    PodSnapshot bumped = new PodSnapshot(pod.uid(), pod.namespace(), pod.name(), pod.node(),
        pod.phase(), pod.qosClass(), "9999", pod.generation(), pod.mode(), pod.maxCpuMilli(),
        pod.maxCpuInvalid(), pod.vpaControlsLimits(), pod.owners(), pod.containers(), pod.resize());
    assertThat(pod.sameBooking(bumped)).isTrue();
    assertThat(pod.sameBooking(pod.withContainers(List.of()))).isFalse();
  }

  private static <T> T roundTrip(T value, Class<T> type) {
    return JsonCodec.decode(JsonCodec.encode(value), type);
  }

  @Test
  void aRejectedOutcomeSurvivesTheWireAndAnUnknownResultIsASchemaError() throws Exception {
    ResizeOutcome rejected = new ResizeOutcome("n1", "uid-1", "kube-system", "coredns",
        OutcomeResult.REJECTED, 64000, Instant.parse("2026-12-01T12:00:00Z"),
        "namespace kube-system is excluded");
    byte[] bytes = events.serialize("t", rejected);
    assertThat(JsonCodec.mapper().readTree(bytes).get("result").asText()).isEqualTo("rejected");
    assertThat(events.deserialize("t", bytes)).isEqualTo(rejected);
    // what a reader older than a new value sees: an unreadable record, never a wrong result
    ObjectNode tree = (ObjectNode) JsonCodec.mapper().readTree(bytes);
    tree.put("result", "some-future-result");
    byte[] future = JsonCodec.mapper().writeValueAsBytes(tree);
    assertThatThrownBy(() -> events.deserialize("t", future))
        .isInstanceOf(SchemaException.class);
  }
}
