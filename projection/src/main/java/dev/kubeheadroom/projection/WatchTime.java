package dev.kubeheadroom.projection;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;

/**
 * A watch line's {@code at}: exactly {@code OffsetDateTime.parse(text).toInstant()}, with the
 * shapes the API server and the log writers use ({@code 2026-03-01T00:00:00Z}, {@code
 * 2026-03-01T00:00:00.249Z}: UTC, up to nanoseconds) read from its digits. Every other text, and a
 * digit pattern that is no real date, goes to {@code OffsetDateTime.parse}, which accepts or
 * refuses it as it always did. The formatter was a twentieth of a replay's CPU; the digits are
 * turned into the instant directly (no {@code LocalDateTime} on the way: a line's time mostly
 * differs from the last line's).
 */
final class WatchTime {
  /** Go's zero time, what many tools write for "unset": a line with it takes the last line's time. */
  static final Instant GO_ZERO = Instant.parse("0001-01-01T00:00:00Z");
  /** The last instant a line may carry: the end of the last four-digit year (epoch millis fit a long). */
  static final Instant LATEST = Instant.parse("9999-12-31T23:59:59.999999999Z");

  private WatchTime() {}

  /**
   * Why a line may not carry {@code at}, or null when it may: a Kafka record's timestamp is epoch
   * milliseconds, never negative, so the replay and the live topics hold only the years 1970-9999.
   */
  static String outOfRange(Instant at) {
    if (at.isBefore(Instant.EPOCH)) {
      return "before 1970-01-01T00:00:00Z";
    }
    return at.isAfter(LATEST) ? "after 9999-12-31T23:59:59Z" : null;
  }

  /** @throws DateTimeParseException as {@code OffsetDateTime.parse} does */
  static Instant parse(String text) {
    int n = text.length();
    if (n >= 20 && n <= 30 && text.charAt(n - 1) == 'Z') {
      byte[] ascii = new byte[n];
      for (int i = 0; i < n; i++) {
        char c = text.charAt(i);
        ascii[i] = c < 0x80 ? (byte) c : (byte) '?';
      }
      Instant fast = parseUtc(ascii, 0, n);
      if (fast != null) {
        return fast;
      }
    }
    return OffsetDateTime.parse(text).toInstant();
  }

  /**
   * The instant of the ASCII text {@code [from, to)} of {@code b} when it has the plain UTC shape
   * and is a real date and time; else null, and the caller asks {@link #parse(String)}.
   */
  static Instant parseUtc(byte[] b, int from, int to) {
    int n = to - from;
    if (n < 20 || b[from + 4] != '-' || b[from + 7] != '-' || b[from + 10] != 'T' || b[from + 13] != ':'
        || b[from + 16] != ':' || b[to - 1] != 'Z') {
      return null;
    }
    int year = digits(b, from, 4);
    int month = digits(b, from + 5, 2);
    int day = digits(b, from + 8, 2);
    int hour = digits(b, from + 11, 2);
    int minute = digits(b, from + 14, 2);
    int second = digits(b, from + 17, 2);
    int nanos = n == 20 ? 0 : fraction(b, from + 19, to - 1);
    if ((year | month | day | hour | minute | second | nanos) < 0 || month < 1 || month > 12 || day < 1
        || day > monthLength(year, month) || hour > 23 || minute > 59 || second > 59) {
      return null; // not a real date or time: the formatter says why
    }
    return Instant.ofEpochSecond(epochDay(year, month, day) * 86_400L + hour * 3_600L + minute * 60L + second, nanos);
  }

  private static int monthLength(int year, int month) {
    return switch (month) {
      case 2 -> (year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)) ? 29 : 28;
      case 4, 6, 9, 11 -> 30;
      default -> 31;
    };
  }

  /** Days from 1970-01-01 to a valid proleptic Gregorian date (as {@code LocalDate.toEpochDay}). */
  private static long epochDay(int year, int month, int day) {
    long y = month <= 2 ? year - 1 : year; // the year from March, so February ends it
    long era = Math.floorDiv(y, 400);
    long yearOfEra = y - era * 400;
    long dayOfYear = (153L * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
    long dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear;
    return era * 146_097 + dayOfEra - 719_468;
  }

  /** {@code .} and 1 to 9 digits at {@code [from, to)} as nanoseconds, or -1. */
  private static int fraction(byte[] b, int from, int to) {
    int count = to - from - 1;
    if (b[from] != '.' || count < 1 || count > 9) {
      return -1;
    }
    int value = digits(b, from + 1, count);
    for (int i = count; i < 9 && value >= 0; i++) {
      value *= 10;
    }
    return value;
  }

  /** The ASCII digits at {@code [from, from + n)} as a number, or -1 when any is not one. */
  private static int digits(byte[] b, int from, int n) {
    int value = 0;
    for (int i = from; i < from + n; i++) {
      byte c = b[i];
      if (c < '0' || c > '9') {
        return -1;
      }
      value = value * 10 + (c - '0');
    }
    return value;
  }
}
