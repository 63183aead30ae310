package dev.kubeheadroom.schemas;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.nio.charset.StandardCharsets;
import java.time.Instant;

/**
 * A record no stage could read or process, kept with where it came from and why; the stage went
 * on with the next record.
 *
 * @param topic partition offset where the record was read ({@code -1} when unknown)
 * @param key the record key, as text (null when it had none)
 * @param reason what went wrong, for a person: the exception class and message
 * @param payload the record value as text, at most {@link #MAX_PAYLOAD_CHARS} characters (a dead
 *     letter must itself fit in a record; the offset finds the original while it is retained)
 * @param at the record's timestamp
 * @param kind what went wrong, for counting: {@code headroom_dead_letters_total{reason}}
 * @param processor the processor that failed (null: the record was not readable at all)
 */
public record DeadLetter(
    String topic, int partition, long offset, String key, String reason, String payload,
    Instant at, Kind kind, String processor)
    implements Versioned {
  /** 16 KiB of text: enough to read what was wrong, small enough for any record size limit. */
  public static final int MAX_PAYLOAD_CHARS = 16 * 1024;

  /** Why a record was dead-lettered: a bounded set, one metric series each. */
  public enum Kind {
    /** Not JSON, or JSON of the wrong shape or type. */
    UNREADABLE("unreadable"),
    /** A node-keyed record without a key: it cannot be placed in a node's history. */
    NULL_KEY("null-key"),
    /** The key names another node than the event. */
    WRONG_KEY("wrong-key"),
    /** A processor threw on it (a bug): the record was skipped. */
    PROCESSING_ERROR("processing-error"),
    /** An output too large for Kafka even when split: not sent. */
    TOO_LARGE("too-large"),
    /** Kafka refused an output for another reason: not sent. */
    PRODUCTION_ERROR("production-error");

    private final String wireName;

    Kind(String wireName) {
      this.wireName = wireName;
    }

    @JsonValue
    public String wireName() {
      return wireName;
    }

    @JsonCreator
    public static Kind fromWireName(String name) {
      for (Kind k : values()) {
        if (k.wireName.equals(name)) {
          return k;
        }
      }
      return UNREADABLE; // a newer writer's kind: still a dead letter
    }
  }

  public DeadLetter {
    payload = truncate(payload);
    kind = kind == null ? Kind.UNREADABLE : kind;
  }

  /** An unreadable record (the reader that could not parse it names no processor). */
  public DeadLetter(String topic, int partition, long offset, String key, String reason,
      String payload, Instant at) {
    this(topic, partition, offset, key, reason, payload, at, Kind.UNREADABLE, null);
  }

  /** The payload as text for a dead letter: UTF-8, cut to {@link #MAX_PAYLOAD_CHARS}. */
  public static String payloadOf(byte[] value) {
    return payloadOf(value, MAX_PAYLOAD_CHARS);
  }

  /** As {@link #payloadOf(byte[])}, cut to {@code maxChars} (a writer with a smaller record limit). */
  public static String payloadOf(byte[] value, int maxChars) {
    if (value == null) {
      return null;
    }
    int bytes = Math.min(value.length, Math.min(maxChars, MAX_PAYLOAD_CHARS) * 4);
    return truncate(new String(value, 0, bytes, StandardCharsets.UTF_8), maxChars);
  }

  private static String truncate(String payload) {
    return truncate(payload, MAX_PAYLOAD_CHARS);
  }

  private static String truncate(String payload, int maxChars) {
    int max = Math.min(maxChars, MAX_PAYLOAD_CHARS);
    if (payload == null || payload.length() <= max) {
      return payload;
    }
    return payload.substring(0, max) + "…(truncated)";
  }
}
