package dev.kubeheadroom.projection;

import static dev.kubeheadroom.projection.JsonBytes.REFUSED;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import java.time.Instant;
import java.util.Arrays;

/**
 * {@link ProjectedWatchLine} over a line's bytes: a Pod or Node line in the plain shape the API
 * server writes ({@code apiVersion} and {@code kind} first in the object, strings where strings
 * belong) is read into its parts, the object bound by {@link ProjectedByteFields}; any other line
 * is refused ({@link JsonBytes#REFUSED}) and read as text. The parts stay here until the caller
 * has seen the line's end: a line is only known whole once its line break is. Not thread-safe.
 */
final class ProjectedByteLine {
  private final ProjectedByteFields fields = new ProjectedByteFields();
  /** The last {@code at} read from its bytes, and its instant. */
  private final byte[] lastAt = new byte[32];
  private int lastAtLength = -1;
  private Instant lastAtInstant;

  /** The line's {@code at}, read from its bytes; else its text (the text path reads it), or neither. */
  private Instant atInstant;
  private String at;
  private String type;
  private String apiVersion;
  private String kind;
  private HasMetadata object;

  /**
   * Reads the line at the cursor up to the end of its object (the cursor stops there, before any
   * trailing whitespace); refused unless it is a plain Pod or Node line.
   */
  void read(JsonBytes j) {
    atInstant = null;
    at = null;
    type = null;
    apiVersion = null;
    kind = null;
    object = null;
    j.ws();
    j.startObject();
    while (j.field()) {
      switch (j.fieldName()) {
        case AT -> { // a later one replaces an earlier one, as in a JSON tree
          atInstant = j.plainString() ? time(j.bytes(), j.valueStart(), j.valueEnd()) : null;
          at = atInstant == null ? j.lastString() : null;
        }
        case TYPE -> type = j.string(fields.vocabulary());
        case OBJECT -> {
          if (object != null || !j.atObject()) {
            throw REFUSED; // a second object, or none: the full path's rules
          }
          object = object(j);
        }
        default -> j.skipValue();
      }
    }
    if (object == null) {
      throw REFUSED;
    }
  }

  private HasMetadata object(JsonBytes j) {
    j.startObject();
    String version = null;
    String k = null;
    for (int i = 0; i < 2; i++) {
      if (!j.field()) {
        throw REFUSED;
      }
      if (j.fieldName() == FieldName.API_VERSION && version == null) {
        version = j.string(fields.vocabulary());
      } else if (j.fieldName() == FieldName.KIND && k == null) {
        k = j.string(fields.vocabulary());
      } else {
        throw REFUSED;
      }
    }
    apiVersion = version;
    kind = k;
    Class<?> target = WatchLogReader.targetClass(version, k);
    if (target == Pod.class) {
      return fields.pod(j);
    }
    if (target == Node.class) {
      return fields.node(j);
    }
    throw REFUSED;
  }

  /**
   * The instant of a plain UTC time (the last line's when the bytes are the same: consecutive
   * lines often share it), or null for any other text.
   */
  private Instant time(byte[] b, int from, int to) {
    int n = to - from;
    if (n == lastAtLength && Arrays.equals(b, from, to, lastAt, 0, n)) {
      return lastAtInstant;
    }
    Instant t = n <= lastAt.length ? WatchTime.parseUtc(b, from, to) : null;
    if (t != null) {
      System.arraycopy(b, from, lastAt, 0, n);
      lastAtLength = n;
      lastAtInstant = t;
    }
    return t;
  }

  /** The item of the line last read, as {@link WatchLogReader#parse} would make it. */
  WatchLogItem item(WatchLogReader reader, long number) {
    return atInstant != null ? reader.item(number, atInstant, type, kind, apiVersion, object)
        : reader.item(number, at, type, kind, apiVersion, object);
  }
}
