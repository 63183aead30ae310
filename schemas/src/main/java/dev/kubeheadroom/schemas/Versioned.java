package dev.kubeheadroom.schemas;

import com.fasterxml.jackson.annotation.JsonProperty;

/** Every record on a topic says which schema wrote it. */
public interface Versioned {
  /** Bumped on an incompatible change; additive changes keep it (readers ignore unknown fields). */
  int SCHEMA_VERSION = 1;

  @JsonProperty("schemaVersion")
  default int schemaVersion() {
    return SCHEMA_VERSION;
  }
}
