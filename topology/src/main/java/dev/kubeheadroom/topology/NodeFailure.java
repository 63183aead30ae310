package dev.kubeheadroom.topology;

/**
 * A processor failed on one node's work: carries the node, so the dead letter (and the log) say
 * which node, even for a failure in a punctuation, which has no input record.
 */
public final class NodeFailure extends RuntimeException {
  private final String node;

  NodeFailure(String node, RuntimeException cause) {
    super("node " + node + ": " + DeadLetters.describe(cause), cause);
    this.node = node;
  }

  public String node() {
    return node;
  }

  /** What the dead letter says: {@code ExceptionClass: message}, the node included. */
  public String reason() {
    return DeadLetters.describe(this);
  }
}
