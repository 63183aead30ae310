package dev.kubeheadroom.schemas;

/** The node object was deleted: its state is dropped. */
public record NodeRemoved(String node) implements NodeEvent {
  public NodeRemoved {
    Require.text(node, "node");
  }
}
