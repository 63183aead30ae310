package dev.kubeheadroom.schemas;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * A gang's ceiling for one node's members, on the {@code gang-ceilings} topic (key: the node):
 * the lowest ratio among the gang's members on <em>other</em> nodes (the node adds its own members'
 * fresh ratios when it decides). Null {@code ceiling}: no member elsewhere, so none applies.
 */
public record GangCeiling(String gang, String node,
    @JsonInclude(JsonInclude.Include.NON_NULL) CeilingRatio ceiling) implements Versioned {
  public GangCeiling {
    Require.text(gang, "gang");
    Require.text(node, "node");
  }
}
