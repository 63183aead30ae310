package dev.kubeheadroom.schemas;

import java.util.List;

/**
 * The full set of live pod uids on a node, published after every ingest (re)start and resync, so
 * pods deleted while ingest was down are dropped downstream and state heals itself.
 */
public record NodeSync(String node, List<String> podUids) implements NodeEvent {
  public NodeSync {
    Require.text(node, "node");
    podUids = Require.list(podUids).stream().sorted().toList();
  }
}
