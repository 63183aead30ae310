package dev.kubeheadroom.schemas;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonSetter;
import com.fasterxml.jackson.annotation.Nulls;

/** A pod left the node (deleted, or rebound elsewhere). {@code epoch}: see {@link NodeEvent#epoch}. */
public record PodRemoved(
    String uid, String namespace, String name, String node,
    @JsonInclude(JsonInclude.Include.NON_DEFAULT) @JsonSetter(nulls = Nulls.AS_EMPTY) long epoch)
    implements NodeEvent {
  public PodRemoved {
    Require.text(uid, "uid");
    Require.text(node, "node");
    Require.nonNegative(epoch, "epoch");
  }

  public PodRemoved(String uid, String namespace, String name, String node) {
    this(uid, namespace, name, node, 0);
  }

  @Override
  public PodRemoved withEpoch(long value) {
    return new PodRemoved(uid, namespace, name, node, value);
  }
}
