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
  @JsonSubTypes.Type(value = ResizeOutcome.class, name = "outcome"),
  @JsonSubTypes.Type(value = SyncMark.class, name = "sync-mark")
})
public sealed interface NodeEvent extends Versioned
    permits PodSnapshot, PodRemoved, NodeSync, NodeSnapshot, NodeRemoved, ResizeOutcome, SyncMark {

  /** The node this event belongs to: the record key. */
  String node();

  /**
   * The ingest leadership that published this event (a number that rises with every change of
   * Lease holder), or 0 when none is known: records written before epochs existed, by the
   * actuator, or by simulate. The topology drops an event whose epoch is lower than one it has
   * already seen for the node (a stale record of an old leader); 0 is never dropped.
   */
  long epoch();

  /** This event stamped with {@code epoch} (the same event when it carries none). */
  NodeEvent withEpoch(long epoch);
}
