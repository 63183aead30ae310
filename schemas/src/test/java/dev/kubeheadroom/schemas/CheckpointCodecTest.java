package dev.kubeheadroom.schemas;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kubeheadroom.schemas.NodeCheckpoint.CheckpointPod;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

class CheckpointCodecTest {

  @Property(tries = 100, edgeCases = EdgeCasesMode.NONE)
  void everyCheckpointSurvivesTheBinaryRoundTripAndEncodesAsItsJsonTwinDoes(@ForAll("checkpoints") NodeCheckpoint c) {
    byte[] bytes = CheckpointCodec.encode(c);
    assertThat(bytes[0]).isEqualTo(CheckpointCodec.VERSION);
    assertThat(CheckpointCodec.decode(bytes)).isEqualTo(c);
    // a JSON checkpoint (format 1, written before the binary form) reads as the same checkpoint
    assertThat(CheckpointCodec.decode(JsonCodec.encode(c))).isEqualTo(c);
    // equal checkpoints, equal bytes: audit --verify compares them so
    assertThat(CheckpointCodec.encode(CheckpointCodec.decode(bytes))).isEqualTo(bytes);
  }

  @Property(tries = 50, edgeCases = EdgeCasesMode.NONE)
  void aTruncatedOrCorruptValueIsASchemaErrorNeverAnotherException(@ForAll("checkpoints") NodeCheckpoint c,
      @ForAll("cuts") int cut) {
    byte[] bytes = CheckpointCodec.encode(c);
    byte[] truncated = Arrays.copyOf(bytes, Math.max(1, Math.min(cut, bytes.length - 1)));
    assertThatThrownBy(() -> CheckpointCodec.decode(truncated)).isInstanceOf(SchemaException.class);
  }

  @Test
  void theGoldenCheckpointIsAQuarterOfItsJsonOrLessAndTheSerdeWritesBinary() {
    NodeCheckpoint c = GoldenFormatTest.checkpoint();
    byte[] binary = HeadroomSerdes.checkpoints().serializer().serialize("t", c);
    assertThat(binary).isEqualTo(CheckpointCodec.encode(c));
    assertThat(HeadroomSerdes.checkpoints().deserializer().deserialize("t", binary)).isEqualTo(c);
    assertThat(HeadroomSerdes.checkpoints().deserializer().deserialize("t", JsonCodec.encode(c))).isEqualTo(c);
    assertThat(binary.length * 2).isLessThan(JsonCodec.encode(c).length);
  }

  @Test
  void theBinaryFormatWritesExactlyItsGoldenBytesAndTheOlderGoldensStillRead() throws Exception {
    // format 5 is on disk in every checkpoints topic: a change to it needs a new version
    NodeCheckpoint cut = GoldenFormatTest.checkpoint().withCut(List.of(new NodeCheckpoint.Position("headroom.pods", 3,
        1_234), new NodeCheckpoint.Position("headroom.nodes", 3, 56)));
    NodeCheckpoint c = cut.withOrder(List.of(new NodeCheckpoint.Run("headroom.pods", 2),
        new NodeCheckpoint.Run("headroom.nodes", 1), new NodeCheckpoint.Run("headroom.pods", 300)));
    String hex = golden("v5.hex");
    assertThat(HexFormat.of().formatHex(CheckpointCodec.encode(c))).isEqualTo(hex);
    assertThat(CheckpointCodec.decode(HexFormat.of().parseHex(hex))).isEqualTo(c);
    assertThat(CheckpointCodec.cut(HexFormat.of().parseHex(hex))).isEqualTo(c.cut());
    assertThat(CheckpointCodec.head(HexFormat.of().parseHex(hex))).satisfies(h -> {
      assertThat(h.cut()).isEqualTo(c.cut());
      assertThat(h.order()).isEqualTo(c.order());
    });
    // format 4 (no read order) and 3 (its pods unversioned) read as the same checkpoint without an order
    for (String older : List.of("v4.hex", "v3.hex")) {
      assertThat(CheckpointCodec.decode(HexFormat.of().parseHex(golden(older)))).isEqualTo(cut);
      assertThat(CheckpointCodec.cut(HexFormat.of().parseHex(golden(older)))).isEqualTo(cut.cut());
      assertThat(CheckpointCodec.head(HexFormat.of().parseHex(golden(older))).order()).isNull();
    }
    // an order not recorded (format 4, or the boundary after an upgrade within the interval) is written as such
    assertThat(CheckpointCodec.decode(CheckpointCodec.encode(cut)).order()).isNull();
    assertThat(CheckpointCodec.decode(CheckpointCodec.encode(cut.withOrder(List.of()))).order()).isEmpty();
    // format 2 (no cut) and the JSON (format 1) read as the same booking without one
    NodeCheckpoint without = GoldenFormatTest.checkpoint();
    assertThat(CheckpointCodec.decode(HexFormat.of().parseHex(golden("v2.hex")))).isEqualTo(without);
    assertThat(CheckpointCodec.cut(HexFormat.of().parseHex(golden("v2.hex")))).isEmpty();
    try (InputStream in = getClass().getResourceAsStream("/golden/checkpoint/v1.json")) {
      assertThat(CheckpointCodec.decode(in.readAllBytes())).isEqualTo(without);
    }
  }

  private String golden(String name) throws java.io.IOException {
    try (InputStream in = getClass().getResourceAsStream("/golden/checkpoint/" + name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
    }
  }

  @Property(tries = 50, edgeCases = EdgeCasesMode.NONE)
  void theCutReadAloneIsTheDecodedCheckpointsCut(@ForAll("checkpoints") NodeCheckpoint c) {
    assertThat(CheckpointCodec.cut(CheckpointCodec.encode(c))).isEqualTo(c.cut());
  }

  @Test
  void anUnknownFormatVersionIsASchemaError() {
    byte[] bytes = CheckpointCodec.encode(GoldenFormatTest.checkpoint());
    bytes[0] = 9;
    assertThatThrownBy(() -> CheckpointCodec.decode(bytes)).isInstanceOf(SchemaException.class)
        .hasMessageContaining("format version 9");
  }

  @Test
  void theFormatCoversEveryComponentOfTheRecordsItWrites() {
    // A record that gains a field must gain it here too, or checkpoints would silently drop it.
    assertThat(NodeCheckpoint.class.getRecordComponents()).hasSize(CheckpointCodec.CHECKPOINT_FIELDS);
    assertThat(CheckpointPod.class.getRecordComponents()).hasSize(CheckpointCodec.CHECKPOINT_POD_FIELDS);
    assertThat(NodeSnapshot.class.getRecordComponents()).hasSize(CheckpointCodec.NODE_FIELDS);
    assertThat(PodSnapshot.class.getRecordComponents()).hasSize(PodLayout.POD_FIELDS);
    assertThat(ContainerSnapshot.class.getRecordComponents()).hasSize(PodLayout.CONTAINER_FIELDS);
    assertThat(OwnerRef.class.getRecordComponents()).hasSize(PodLayout.OWNER_FIELDS);
  }

  @Provide
  Arbitrary<Integer> cuts() {
    return Arbitraries.integers().between(1, 400);
  }

  @Provide
  Arbitrary<NodeCheckpoint> checkpoints() {
    Arbitrary<NodeSnapshot> node = Combinators.combine(text(), Arbitraries.longs().between(0, Long.MAX_VALUE),
        text().injectNull(0.3), Arbitraries.of(true, false),
        Arbitraries.maps(text(), text().injectNull(0.0)).ofMaxSize(4), Arbitraries.longs().between(0, 1L << 40))
        .as(NodeSnapshot::new);
    Arbitrary<NodeCheckpoint.Position> position = Combinators.combine(text(), Arbitraries.integers().between(0, 1 << 20),
        Arbitraries.longs().between(0, Long.MAX_VALUE)).as(NodeCheckpoint.Position::new);
    return Combinators.combine(text(), instants(), node.injectNull(0.2), pod().list().ofMaxSize(4),
        position.list().ofMaxSize(3)).as(NodeCheckpoint::new);
  }

  private Arbitrary<CheckpointPod> pod() {
    Arbitrary<ContainerSnapshot> container = Combinators.combine(text(), Arbitraries.of(ContainerKind.class),
        Arbitraries.longs().between(0, Long.MAX_VALUE), Arbitraries.longs().between(0, 100_000),
        Arbitraries.of(true, false), Arbitraries.of(true, false)).as(ContainerSnapshot::new);
    Arbitrary<OwnerRef> owner = Combinators.combine(text().injectNull(0.2), text(), text().injectNull(0.2),
        Arbitraries.of(true, false)).as(OwnerRef::new);
    Arbitrary<PodSnapshot> base = Combinators.combine(text(), text(), text(), text(), text().injectNull(0.3),
        text().injectNull(0.3), text().injectNull(0.3), Arbitraries.longs().between(0, Long.MAX_VALUE))
        .as((uid, ns, name, n, phase, qos, rv, gen) -> new PodSnapshot(uid, ns, name, n, phase, qos, rv, gen,
            null, 0, null, false, List.of(), List.of(), null));
    Arbitrary<PodSnapshot> pod = Combinators.combine(base, text().injectNull(0.5), Arbitraries.longs().between(0, 64_000),
        text().injectNull(0.8), Arbitraries.of(true, false), owner.list().ofMaxSize(2), container.list().ofMaxSize(3),
        Arbitraries.of(ResizeStatus.class))
        .as((b, mode, max, invalid, vpa, owners, containers, resize) -> new PodSnapshot(b.uid(), b.namespace(),
            b.name(), b.node(), b.phase(), b.qosClass(), b.resourceVersion(), b.generation(), mode, max, invalid,
            vpa, owners, containers, resize));
    Arbitrary<PodSnapshot> full = Combinators.combine(pod, Arbitraries.of(true, false),
        Arbitraries.longs().between(0, 1L << 40), text().injectNull(0.5))
        .as((p, plr, epoch, gang) -> new PodSnapshot(p.uid(), p.namespace(), p.name(), p.node(), p.phase(),
            p.qosClass(), p.resourceVersion(), p.generation(), p.mode(), p.maxCpuMilli(), p.maxCpuInvalid(),
            p.vpaControlsLimits(), p.owners(), p.containers(), p.resize(), plr, epoch, gang));
    return Combinators.combine(full, instants().injectNull(0.5), Arbitraries.of(true, false),
        Arbitraries.integers().between(0, Integer.MAX_VALUE)).as(CheckpointPod::new);
  }

  private static Arbitrary<Instant> instants() {
    return Combinators.combine(Arbitraries.longs().between(-4_000_000_000L, 40_000_000_000L),
        Arbitraries.integers().between(0, 999_999_999)).as(Instant::ofEpochSecond);
  }

  /** Non-empty text, unicode included (required names are non-blank). */
  private static Arbitrary<String> text() {
    return Arbitraries.strings().withCharRange('a', 'z').withChars('ü', '→', '-', '/', '.').ofMinLength(1)
        .ofMaxLength(12);
  }
}
