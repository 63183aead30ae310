package dev.kubeheadroom.schemas;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** A node sync too large for one record is chunked by uid range (NodeSync). */
class NodeSyncChunksTest {
  static List<String> uids(int n) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(UUID.nameUUIDFromBytes(("pod-" + i).getBytes()).toString());
    }
    return out;
  }

  @Test
  void aSyncThatFitsIsOneWholeSyncSerializedAsBefore() {
    List<NodeSync> chunks = NodeSync.chunks("n1", uids(3), NodeSync.DEFAULT_CHUNK_BYTES);
    assertThat(chunks).singleElement().isEqualTo(new NodeSync("n1", uids(3)));
    assertThat(JsonCodec.encodeToString(chunks.get(0))).doesNotContain("from").doesNotContain("until");
  }

  @Test
  void twentyThousandPodsAreChunkedIntoContiguousRangesThatEachFitAndCoverEveryUid() {
    List<String> all = uids(20_000);
    List<NodeSync> chunks = NodeSync.chunks("n1", all, NodeSync.DEFAULT_CHUNK_BYTES);

    assertThat(chunks).hasSizeGreaterThan(1);
    assertThat(chunks).allSatisfy(c -> assertThat(JsonCodec.encode(c).length)
        .isLessThan(NodeSync.DEFAULT_CHUNK_BYTES + 1024));
    assertThat(chunks.get(0).from()).isNull();
    assertThat(chunks.get(chunks.size() - 1).until()).isNull();
    for (int i = 1; i < chunks.size(); i++) {
      assertThat(chunks.get(i).from()).isEqualTo(chunks.get(i - 1).until());
    }
    // every uid in exactly one chunk, and every chunk speaks for its listed uids
    assertThat(chunks.stream().flatMap(c -> c.podUids().stream()).toList())
        .containsExactlyElementsOf(all.stream().sorted().toList());
    for (String uid : all) {
      assertThat(chunks.stream().filter(c -> c.covers(uid))).hasSize(1);
    }
    // and the chunks survive the wire
    NodeEvent read = JsonCodec.decode(JsonCodec.encode(chunks.get(1)), NodeEvent.class);
    assertThat(read).isEqualTo(chunks.get(1));
  }

  @Test
  void anEmptyNodeIsOneWholeSync() {
    assertThat(NodeSync.chunks("n1", List.of(), 1024)).containsExactly(new NodeSync("n1", List.of()));
  }

  @Test
  void aChunkListingAUidOutsideItsRangeIsRefused() {
    assertThatThrownBy(() -> new NodeSync("n1", List.of("a", "z"), "b", "y"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("outside");
  }
}
