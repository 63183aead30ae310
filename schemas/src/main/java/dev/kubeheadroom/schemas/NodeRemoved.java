package dev.kubeheadroom.schemas;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonSetter;
import com.fasterxml.jackson.annotation.Nulls;

/** The node object was deleted: its state is dropped. {@code epoch}: see {@link NodeEvent#epoch}. */
public record NodeRemoved(
    String node,
    @JsonInclude(JsonInclude.Include.NON_DEFAULT) @JsonSetter(nulls = Nulls.AS_EMPTY) long epoch)
    implements NodeEvent {
  public NodeRemoved {
    Require.text(node, "node");
    Require.nonNegative(epoch, "epoch");
  }

  public NodeRemoved(String node) {
    this(node, 0);
  }

  @Override
  public NodeRemoved withEpoch(long value) {
    return new NodeRemoved(node, value);
  }
}
