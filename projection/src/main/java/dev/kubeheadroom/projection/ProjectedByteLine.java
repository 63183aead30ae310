package dev.kubeheadroom.projection;

import static dev.kubeheadroom.projection.JsonBytes.REFUSED;

import dev.kubeheadroom.projection.JsonBytes.Name;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;

/**
 * {@link ProjectedWatchLine} over a line's bytes: a Pod or Node line in the plain shape the API
 * server writes ({@code apiVersion} and {@code kind} first in the object, strings where strings
 * belong) is read into its parts, the object bound by {@link ProjectedByteFields}; any other line
 * is refused ({@link JsonBytes#REFUSED}) and read as text. The parts stay here until the caller
 * has seen the line's end: a line is only known whole once its line break is. Not thread-safe.
 */
final class ProjectedByteLine {
  private static final Name AT = new Name("at");
  private static final Name TYPE = new Name("type");
  private static final Name OBJECT = new Name("object");
  private static final Name API_VERSION = new Name("apiVersion");
  private static final Name KIND = new Name("kind");

  private final ProjectedByteFields fields = new ProjectedByteFields();
  /** Consecutive lines mostly share their time: one string for it. */
  private final ByteStrings times = new ByteStrings(1);

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
    at = null;
    type = null;
    apiVersion = null;
    kind = null;
    object = null;
    j.ws();
    j.startObject();
    while (j.field()) {
      if (j.nameIs(AT)) {
        at = j.string(times);
      } else if (j.nameIs(TYPE)) {
        type = j.string(fields.vocabulary());
      } else if (j.nameIs(OBJECT)) {
        if (object != null || !j.atObject()) {
          throw REFUSED; // a second object, or none: the full path's rules
        }
        object = object(j);
      } else {
        j.skipValue();
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
      if (j.nameIs(API_VERSION) && version == null) {
        version = j.string(fields.vocabulary());
      } else if (j.nameIs(KIND) && k == null) {
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

  /** The item of the line last read, as {@link WatchLogReader#parse} would make it. */
  WatchLogItem item(WatchLogReader reader, long number) {
    return reader.item(number, at, type, kind, apiVersion, object);
  }
}
