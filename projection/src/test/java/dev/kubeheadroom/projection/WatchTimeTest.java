package dev.kubeheadroom.projection;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.Year;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** {@link WatchTime} reads exactly what {@code OffsetDateTime.parse} reads, and refuses the rest. */
class WatchTimeTest {
  @Test
  void agreesWithTheFormatterOnRandomTextsAroundTheUsualShape() {
    Random r = new Random(3);
    String alphabet = "0123456789-T:Z+.ztx ";
    int fast = 0;
    int bytes = 0;
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
      byte[] ascii = text.getBytes(StandardCharsets.ISO_8859_1);
      Instant fromBytes = WatchTime.parseUtc(ascii, 0, ascii.length);
      if (fromBytes != null) { // null: the caller reads the text instead
        assertThat(fromBytes).as(text).isEqualTo(expected);
        bytes++;
      }
    }
    assertThat(fast).as("valid texts among the samples").isGreaterThan(800);
    assertThat(bytes).as("read from the bytes (not 't', 'z', offsets)").isGreaterThan(fast / 2);
  }

  /**
   * Every day of 36 years (2000 among them), and the turns of the year and of February in every
   * four-digit year: the day count and the leap years are {@code java.time}'s (the formatter's
   * own), without the formatter's cost; and dates no calendar has are refused.
   */
  @Test
  void readsEveryDateAsJavaTimeDoes() {
    List<LocalDate> dates = new ArrayList<>();
    for (LocalDate d = LocalDate.of(1995, 1, 1); d.getYear() < 2031; d = d.plusDays(1)) {
      dates.add(d);
    }
    for (int year = 0; year <= 9999; year++) {
      dates.addAll(List.of(LocalDate.of(year, 1, 1), LocalDate.of(year, 2, 28), LocalDate.of(year, 3, 1),
          LocalDate.of(year, 12, 31)));
      String feb29 = String.format("%04d-02-29T23:59:58.5Z", year);
      assertThat(parseUtc(feb29)).as(feb29).isEqualTo(Year.isLeap(year)
          ? LocalDate.of(year, 2, 29).atTime(23, 59, 58, 500_000_000).toInstant(ZoneOffset.UTC) : null);
    }
    for (LocalDate d : dates) {
      String text = d + "T23:59:58.5Z";
      assertThat(parseUtc(text)).as(text).isEqualTo(d.atTime(23, 59, 58, 500_000_000).toInstant(ZoneOffset.UTC));
    }
    for (String noDate : List.of("2026-04-31", "2026-13-01", "2026-00-01", "2026-01-00", "2026-01-32", "2026-06-31")) {
      assertThat(parseUtc(noDate + "T00:00:00Z")).as(noDate).isNull();
    }
  }

  private static Instant parseUtc(String ascii) {
    byte[] b = ascii.getBytes(StandardCharsets.ISO_8859_1);
    return WatchTime.parseUtc(b, 0, b.length);
  }

  @Test
  void otherValidShapesStillRead() {
    for (String text : new String[] {"2026-03-01T00:00:00.5Z", "2026-03-01T00:00:00.Z", "2026-03-01T00:00:00.1234567890Z",
        "2026-03-01T24:00:00Z", "2026-03-01T00:00:60Z", "2026-02-29T00:00:00Z", "1900-02-29T00:00:00Z", "2000-02-29T00:00:00Z",
        "2026-03-01T00:00:00\u00e9", "2026-03-01T00:00:00.\u0661Z", "2026-03-01t00:00:00z", "2026-03-01T01:28:46.249Z", "2026-03-01T01:28:46.123456789Z", "2026-03-01T01:00:00+01:00",
        "2024-02-29T23:59:59Z", "+12026-03-01T00:00:00Z", "0000-01-01T00:00:00Z"}) {
      Instant actual;
      try {
        actual = WatchTime.parse(text);
      } catch (DateTimeParseException e) {
        actual = null;
      }
      assertThat(actual).as(text).isEqualTo(formatter(text));
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
