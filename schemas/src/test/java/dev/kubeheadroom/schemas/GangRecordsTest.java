package dev.kubeheadroom.schemas;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Gangs (§11.6): what a gang is, and the records that carry it, added compatibly. */
class GangRecordsTest {

  @Test
  void theAnnotationNamesAGangWithinThePodsNamespace() {
    PodSnapshot pod = Samples.pod().withGang("train-7");
    assertThat(GangKey.of(pod, List.of())).isEqualTo("team-a/train-7");
    assertThat(GangKey.of(pod.withGang("  train-7 "), List.of())).isEqualTo("team-a/train-7");
  }

  @Test
  void aBlankOrOverlongAnnotationIsNoGangNeverAnError() {
    assertThat(GangKey.of(Samples.pod(), List.of())).isNull();
    assertThat(GangKey.of(Samples.pod().withGang(" "), List.of())).isNull();
    assertThat(GangKey.of(Samples.pod().withGang("x".repeat(GangKey.MAX_VALUE_LENGTH)), List.of())).isNotNull();
    assertThat(GangKey.of(Samples.pod().withGang("x".repeat(GangKey.MAX_VALUE_LENGTH + 1)), List.of())).isNull();
  }

  @Test
  void aListedControllerOwnerKindMakesAGangAndTheAnnotationWins() {
    PodSnapshot owned = Samples.pod(); // controlled by ReplicaSet web-7c
    assertThat(GangKey.of(owned, List.of("Job"))).isNull();
    assertThat(GangKey.of(owned, List.of("Job", "ReplicaSet"))).isEqualTo("team-a/ReplicaSet/web-7c");
    assertThat(GangKey.of(owned.withGang("g"), List.of("ReplicaSet"))).isEqualTo("team-a/g");
  }

  @Test
  void aNonControllerOwnerIsNotAGang() {
    PodSnapshot pod = new PodSnapshot("u", "ns", "p", "n1", "Running", "Burstable", "1", 1, null, 0,
        null, false, List.of(new OwnerRef("Job", "j", "uid-j", false)), List.of(), ResizeStatus.NONE);
    assertThat(GangKey.of(pod, List.of("Job"))).isNull();
  }

  @Test
  void aPodInNoGangKeepsItsBytesAndAnOldRecordReadsAsNoGang() {
    String json = new String(JsonCodec.encode(Samples.pod()), StandardCharsets.UTF_8);
    assertThat(json).doesNotContain("gang");
    PodSnapshot read = JsonCodec.decode(json.getBytes(StandardCharsets.UTF_8), PodSnapshot.class);
    assertThat(read).isEqualTo(Samples.pod());
    PodSnapshot inGang = Samples.pod().withGang("g");
    assertThat(JsonCodec.decode(JsonCodec.encode(inGang), NodeEvent.class)).isEqualTo(inGang);
  }

  @Test
  void aDecisionInputNamesItsGangOnlyWhenInOne() {
    DecisionInput plain = new DecisionInput("u", 500, 0, true, 0);
    assertThat(new String(JsonCodec.encode(plain), StandardCharsets.UTF_8)).doesNotContain("gang");
    DecisionInput member = plain.inGang("ns/g", new CeilingRatio(1500, 1000));
    String json = new String(JsonCodec.encode(member), StandardCharsets.UTF_8);
    assertThat(json).contains("\"gang\":\"ns/g\"", "\"gangCeiling\":{\"targetMilli\":1500,\"requestMilli\":1000}");
    assertThat(JsonCodec.decode(JsonCodec.encode(member), DecisionInput.class)).isEqualTo(member);
  }

  @Test
  void gangRecordsRoundTripAndRefuseImpossibleRatios() {
    GangMembers members = new GangMembers("ns/g", "n1", List.of(new GangMember("u", 1000, 2500)));
    assertThat(JsonCodec.decode(JsonCodec.encode(members), GangMembers.class)).isEqualTo(members);
    GangCeiling ceiling = new GangCeiling("ns/g", "n2", new CeilingRatio(2500, 1000));
    assertThat(JsonCodec.decode(JsonCodec.encode(ceiling), GangCeiling.class)).isEqualTo(ceiling);
    GangCeiling none = new GangCeiling("ns/g", "n2", null);
    assertThat(JsonCodec.decode(JsonCodec.encode(none), GangCeiling.class)).isEqualTo(none);
    byte[] belowRequest = "{\"gang\":\"g\",\"node\":\"n\",\"members\":[{\"uid\":\"u\",\"requestMilli\":10,\"targetMilli\":5}]}"
        .getBytes(StandardCharsets.UTF_8);
    assertThatThrownBy(() -> JsonCodec.decode(belowRequest, GangMembers.class)).isInstanceOf(SchemaException.class);
  }
}
