package dev.kubeheadroom.schemas;

/** A pod left the node (deleted, or rebound elsewhere). */
public record PodRemoved(String uid, String namespace, String name, String node)
    implements NodeEvent {
  public PodRemoved {
    Require.text(uid, "uid");
    Require.text(node, "node");
  }
}
