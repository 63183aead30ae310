package dev.kubeheadroom.schemas;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonSetter;
import com.fasterxml.jackson.annotation.Nulls;
import java.util.List;

/**
 * The full set of live pod uids on a node, published after every ingest (re)start and resync, so
 * pods deleted while ingest was down are dropped downstream and state heals itself.
 * {@code epoch}: see {@link NodeEvent#epoch}.
 */
public record NodeSync(
    String node, List<String> podUids,
    @JsonInclude(JsonInclude.Include.NON_DEFAULT) @JsonSetter(nulls = Nulls.AS_EMPTY) long epoch)
    implements NodeEvent {
  public NodeSync {
    Require.text(node, "node");
    podUids = Require.list(podUids).stream().sorted().toList();
    Require.nonNegative(epoch, "epoch");
  }

  public NodeSync(String node, List<String> podUids) {
    this(node, podUids, 0);
  }

  @Override
  public NodeSync withEpoch(long value) {
    return new NodeSync(node, podUids, value);
  }
}
