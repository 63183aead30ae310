package dev.kubeheadroom.topology;

import java.time.Duration;

/**
 * The topology made no progress for longer than its bound while Kafka answered ({@link
 * StallWatchdog}): the runner reports it as its failure, so that the stage exits non-zero (split
 * mode: the kubelet starts a new process) or is restarted in process ({@code headroom run}); either
 * way a new Kafka Streams client, whose producer fences the stuck one's transaction.
 */
public final class TopologyStalled extends RuntimeException {
  private static final long serialVersionUID = 1L;

  TopologyStalled(Duration idle, Duration bound, String state) {
    super("the topology made no progress for " + idle.toSeconds() + " s while Kafka answered (bound "
        + bound.toSeconds() + " s, client state " + state + "); a new client is needed");
  }
}
