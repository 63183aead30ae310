package dev.kubeheadroom.cli;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;

/** RFC 3339 times given on the command line. */
final class Times {
  private Times() {}

  static Instant parse(String option, String text) {
    try {
      return OffsetDateTime.parse(text).toInstant();
    } catch (DateTimeParseException e) {
      throw new UserError(option + " " + text + ": not an RFC 3339 time (e.g. 2026-03-01T12:00:00Z)");
    }
  }
}
