package dev.kubeheadroom.schemas;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;

/**
 * Everything that changes a node's booking, keyed by node name: the value type of the
 * {@code pods}, {@code nodes} and {@code outcomes} topics.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
@JsonSubTypes({
  @JsonSubTypes.Type(value = PodSnapshot.class, name = "pod"),
  @JsonSubTypes.Type(value = PodRemoved.class, name = "pod-removed"),
  @JsonSubTypes.Type(value = NodeSync.class, name = "node-sync"),
  @JsonSubTypes.Type(value = NodeSnapshot.class, name = "node"),
  @JsonSubTypes.Type(value = NodeRemoved.class, name = "node-removed"),
  @JsonSubTypes.Type(value = ResizeOutcome.class, name = "outcome")
})
public sealed interface NodeEvent extends Versioned
    permits PodSnapshot, PodRemoved, NodeSync, NodeSnapshot, NodeRemoved, ResizeOutcome {

  /** The node this event belongs to: the record key. */
  String node();
}
