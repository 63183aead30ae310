package dev.kubeheadroom.projection;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** {@link WatchTime} reads exactly what {@code OffsetDateTime.parse} reads, and refuses the rest. */
class WatchTimeTest {
  @Test
  void agreesWithTheFormatterOnRandomTextsAroundTheUsualShape() {
    Random r = new Random(3);
    String alphabet = "0123456789-T:Z+.ztx ";
    int fast = 0;
    for (int i = 0; i < 5_000; i++) {
      String fraction = switch (r.nextInt(4)) {
        case 0 -> "";
        case 1 -> ".";
        default -> "." + Long.toString((1L << 40) + r.nextLong(1L << 40)).substring(0, 1 + r.nextInt(11));
      };
      char[] t = String.format("%04d-%02d-%02dT%02d:%02d:%02d%sZ", r.nextInt(10_000), r.nextInt(14),
          r.nextInt(33), r.nextInt(26), r.nextInt(62), r.nextInt(62), fraction).toCharArray();
      for (int k = r.nextInt(3); k > 0; k--) { // mostly well-formed, some mangled
        t[r.nextInt(t.length)] = alphabet.charAt(r.nextInt(alphabet.length()));
      }
      String text = r.nextInt(20) == 0 ? new String(t, 0, r.nextInt(t.length)) : new String(t);
      Instant expected = formatter(text);
      Instant actual;
      try {
        actual = WatchTime.parse(text);
      } catch (DateTimeParseException e) {
        actual = null;
      }
      assertThat(actual).as(text).isEqualTo(expected);
      fast += expected != null ? 1 : 0;
    }
    assertThat(fast).as("valid texts among the samples").isGreaterThan(800);
  }

  @Test
  void otherValidShapesStillRead() {
    for (String text : new String[] {"2026-03-01T00:00:00.5Z", "2026-03-01T01:28:46.249Z", "2026-03-01T01:28:46.123456789Z", "2026-03-01T01:00:00+01:00",
        "2024-02-29T23:59:59Z", "+12026-03-01T00:00:00Z", "0000-01-01T00:00:00Z"}) {
      assertThat(WatchTime.parse(text)).as(text).isEqualTo(formatter(text));
    }
  }

  private static Instant formatter(String text) {
    try {
      return OffsetDateTime.parse(text).toInstant();
    } catch (DateTimeParseException e) {
      return null;
    }
  }
}
