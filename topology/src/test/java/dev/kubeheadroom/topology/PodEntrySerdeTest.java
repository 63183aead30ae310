package dev.kubeheadroom.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kubeheadroom.schemas.ContainerKind;
import dev.kubeheadroom.schemas.ContainerSnapshot;
import dev.kubeheadroom.schemas.JsonCodec;
import dev.kubeheadroom.schemas.OwnerRef;
import dev.kubeheadroom.schemas.PodLayout;
import dev.kubeheadroom.schemas.PodSnapshot;
import dev.kubeheadroom.schemas.ResizeStatus;
import dev.kubeheadroom.schemas.SchemaException;
import dev.kubeheadroom.topology.booking.Pending;
import dev.kubeheadroom.topology.booking.PodEntry;
import dev.kubeheadroom.topology.booking.PodFacts;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.reflect.RecordComponent;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PodEntrySerdeTest {
  final PodEntrySerde serde = new PodEntrySerde();

  static PodEntry full() {
    PodSnapshot pod = new PodSnapshot("uid-ü-1", "team-a", "web-1", "node-7", "Running", "Burstable", "123456",
        9, "managed", 4000, "lots", true,
        List.of(new OwnerRef("ReplicaSet", "web-5d9", "rs-uid", true), new OwnerRef("Job", "j", "j-uid", false)),
        List.of(new ContainerSnapshot("init-setup", ContainerKind.INIT, 250, 0, false, false),
            new ContainerSnapshot("mesh", ContainerKind.SIDECAR, 100, 300, true, false),
            new ContainerSnapshot("app", ContainerKind.APP, 2000, 12000, false, true)),
        ResizeStatus.INFEASIBLE, true);
    return new PodEntry(pod, new Pending(12300, Map.of("app", 12000L, "mesh", 300L),
        Instant.parse("2026-03-01T12:00:01.123456789Z"), true), Instant.parse("1969-12-31T23:59:58.5Z"), true,
        300);
  }

  static PodEntry sparse() {
    PodSnapshot pod = new PodSnapshot("u", "ns", "p", "n", null, null, null, 0, null, 0, null, false,
        List.of(), List.of(), null);
    return new PodEntry(pod, null, null, false);
  }

  @Test
  void everyFieldSurvivesTheRoundTripIncludingNullsUnicodeNanosAndNegativeSeconds() {
    for (PodEntry entry : List.of(full(), sparse())) {
      byte[] bytes = serde.serialize("t", entry);
      assertThat(bytes[0]).isEqualTo(PodEntrySerde.VERSION);
      assertThat(serde.deserialize("t", bytes)).isEqualTo(entry);
    }
    assertThat(serde.serialize("t", null)).isNull();
    assertThat(serde.deserialize("t", null)).isNull();
  }

  @Test
  void theFormatCoversEveryComponentOfTheRecordsItWrites() {
    // A record that gains a field must gain it here too, or the store would silently drop it.
    assertThat(PodSnapshot.class.getRecordComponents()).hasSize(PodLayout.POD_FIELDS);
    assertThat(ContainerSnapshot.class.getRecordComponents()).hasSize(PodLayout.CONTAINER_FIELDS);
    assertThat(OwnerRef.class.getRecordComponents()).hasSize(PodLayout.OWNER_FIELDS);
    assertThat(Pending.class.getRecordComponents()).hasSize(PodEntrySerde.PENDING_FIELDS);
    // PodEntry's last component, its facts, is derived from its pod when the entry is made: not written
    RecordComponent[] entry = PodEntry.class.getRecordComponents();
    assertThat(entry).hasSize(PodEntrySerde.ENTRY_FIELDS + 1);
    assertThat(entry[PodEntrySerde.ENTRY_FIELDS].getType()).isEqualTo(PodFacts.class);
  }

  @Test
  void aVersionOneValueWrittenBeforePodLevelResourcesReadsAsWithout() {
    // given version 1 bytes: version 2's without the podLevelResources byte after the resize
    // status (sparse(): no pending, no backoff, so three booleans follow it), version 2's being
    // version 3's without the trailing refusal count
    byte[] v3 = v3(sparse());
    byte[] v2 = Arrays.copyOf(v3, v3.length - 1);
    byte[] v1 = new byte[v2.length - 1];
    int at = v2.length - 4;
    System.arraycopy(v2, 0, v1, 0, at);
    System.arraycopy(v2, at + 1, v1, at, v2.length - at - 1);
    v1[0] = 1;
    // when / then
    assertThat(serde.deserialize("t", v1)).isEqualTo(sparse());
    assertThat(sparse().pod().podLevelResources()).isFalse();
  }

  @Test
  void aVersionTwoValueWrittenBeforeRefusalsWereCountedReadsAsOneRefusalWhenInBackoff() {
    // given version 2 bytes: version 3's without the trailing refusal count (300 takes 2 varint bytes)
    PodEntry inBackoff = full();
    byte[] v3 = v3(inBackoff);
    byte[] v2 = Arrays.copyOf(v3, v3.length - 2);
    v2[0] = 2;
    // when / then: the backoff it was in is kept, as a first refusal's
    assertThat(serde.deserialize("t", v2)).isEqualTo(new PodEntry(inBackoff.pod(),
        inBackoff.pending(), inBackoff.backoffSince(), true, 1));
    byte[] sparseV2 = Arrays.copyOf(v3(sparse()), v3(sparse()).length - 1);
    sparseV2[0] = 2;
    assertThat(serde.deserialize("t", sparseV2).refusals()).isZero();
  }

  /** Version 3 bytes of full() or sparse(): version 4's without the trailing null gang. */
  private static byte[] v3(PodEntry noGang) {
    byte[] v4 = v4(noGang.equals(full()) ? "full" : "sparse");
    byte[] v3 = Arrays.copyOf(v4, v4.length - 1);
    v3[0] = 3;
    return v3;
  }

  private static byte[] v4(String name) {
    return golden("v4-" + name);
  }

  /** The checked-in bytes of {@code golden/pod-store/<name>.hex}. */
  private static byte[] golden(String name) {
    try (InputStream in = PodEntrySerdeTest.class.getResourceAsStream("/golden/pod-store/" + name + ".hex")) {
      return HexFormat.of().parseHex(new String(in.readAllBytes(), StandardCharsets.UTF_8).strip());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static PodEntry gangMember() {
    return new PodEntry(full().pod().withGang("train-ü"), full().pending(), full().backoffSince(), true, 300);
  }

  @Test
  void theGangSurvivesTheRoundTripAndAVersionThreeValueReadsAsNoGang() {
    PodEntry member = gangMember();
    assertThat(serde.deserialize("t", serde.serialize("t", member))).isEqualTo(member);
    assertThat(serde.deserialize("t", v3(full()))).isEqualTo(full());
  }

  @Test
  void theFormatWritesExactlyItsGoldenBytes() {
    // format 5 is in every pod store's changelog: a change to it needs a new version
    assertThat(serde.serialize("t", full())).isEqualTo(golden("v5-full"));
    assertThat(serde.serialize("t", gangMember())).isEqualTo(golden("v5-gang"));
  }

  @Test
  void versionFourValuesWrittenBeforeThePodLayoutStillRead() {
    assertThat(serde.deserialize("t", v4("full"))).isEqualTo(full());
    assertThat(serde.deserialize("t", v4("sparse"))).isEqualTo(sparse());
    assertThat(serde.deserialize("t", v4("gang"))).isEqualTo(gangMember());
  }

  @Test
  void aStampedPodIsStoredUnstampedAsBefore() {
    PodEntry stamped = new PodEntry(full().pod().withEpoch(7), full().pending(), full().backoffSince(), true, 300);
    assertThat(serde.deserialize("t", serde.serialize("t", stamped))).isEqualTo(full());
  }

  @Test
  void valuesWrittenAsJsonByEarlierReleasesAreStillRead() {
    byte[] json = JsonCodec.encode(full());
    assertThat(serde.deserialize("t", json)).isEqualTo(full());
  }

  @Test
  void equalEntriesEncodeToEqualBytesAndFarSmallerThanJson() {
    assertThat(serde.serialize("t", full())).isEqualTo(serde.serialize("t", serde.deserialize("t",
        serde.serialize("t", full()))));
    assertThat(serde.serialize("t", full()).length).isLessThan(JsonCodec.encode(full()).length / 2);
  }

  @Test
  void anUnreadableValueIsASchemaErrorNamingTheProblem() {
    byte[] bytes = serde.serialize("t", full());
    assertThatThrownBy(() -> serde.deserialize("t", Arrays.copyOf(bytes, bytes.length - 3)))
        .isInstanceOf(SchemaException.class).hasMessageContaining("unreadable pod store value");
    byte[] longer = Arrays.copyOf(bytes, bytes.length + 2);
    assertThatThrownBy(() -> serde.deserialize("t", longer))
        .isInstanceOf(SchemaException.class).hasMessageContaining("bytes past its end");
    byte[] future = bytes.clone();
    future[0] = 9;
    assertThatThrownBy(() -> serde.deserialize("t", future))
        .isInstanceOf(SchemaException.class).hasMessageContaining("format version 9");
  }
}
