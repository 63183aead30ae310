package dev.kubeheadroom.topology;

import static dev.kubeheadroom.topology.Fixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.schemas.NodeSync;
import dev.kubeheadroom.topology.booking.NodeBooking;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A chunk of a node sync drops the pods in its uid range it does not list, and leaves every pod
 * outside its range alone, so the chunks of one sync together drop exactly what a whole sync would.
 */
class NodeSyncChunkBookingTest {
  static final Instant AT = Instant.parse("2026-03-01T12:00:00Z");

  @Test
  void eachChunkSpeaksOnlyForItsRangeAndTogetherTheyEqualAWholeSync() {
    // given pods a, b, c, d booked on n1
    NodeBooking booking = NodeBooking.empty("n1");
    for (String name : List.of("a", "b", "c", "d")) {
      booking = booking.apply(pod("team-a", name, "n1", 100, 0), AT).booking();
    }

    // when the first chunk, [start, uid-c), lists only uid-a
    NodeBooking afterFirst = booking.apply(new NodeSync("n1", List.of("uid-a"), null, "uid-c"), AT).booking();

    // then b is dropped, and c and d, outside the range, are kept
    assertThat(afterFirst.pods().keySet()).containsExactly("uid-a", "uid-c", "uid-d");

    // when the second chunk, [uid-c, end), lists only uid-d
    NodeBooking afterSecond = afterFirst.apply(new NodeSync("n1", List.of("uid-d"), "uid-c", null), AT).booking();

    // then the result is the whole sync's
    assertThat(afterSecond.pods().keySet()).containsExactly("uid-a", "uid-d");
    assertThat(afterSecond.pods().keySet()).isEqualTo(
        booking.apply(new NodeSync("n1", List.of("uid-a", "uid-d")), AT).booking().pods().keySet());
  }
}
