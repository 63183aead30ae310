package dev.kubeheadroom.schemas;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * How a node's slack is split (HeadroomConfig {@code spec.tenancy}; docs/design/headroom-design.txt
 * §11.1): across all managed pods by request ({@link #NONE}, the default), or first across
 * namespaces by weighted request share and then across each namespace's pods ({@link #NAMESPACES}).
 */
public enum Tenancy {
  @JsonProperty("None") NONE,
  @JsonProperty("Namespaces") NAMESPACES;

  /** The spelling in the CRD and on the config topic. */
  public String wireName() {
    return this == NONE ? "None" : "Namespaces";
  }

  /** Jackson value filter: the default is not written, so configs without tenancy keep their bytes. */
  public static final class OmitNone {
    @Override
    public boolean equals(Object other) {
      return other == null || other == NONE;
    }

    @Override
    public int hashCode() {
      return 0;
    }
  }
}
