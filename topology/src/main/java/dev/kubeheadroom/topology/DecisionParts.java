package dev.kubeheadroom.topology;

import dev.kubeheadroom.schemas.DecisionInput;
import dev.kubeheadroom.schemas.JsonCodec;
import dev.kubeheadroom.schemas.NodeDecision;
import dev.kubeheadroom.schemas.PodChange;
import java.util.ArrayList;
import java.util.List;

/**
 * Splits a decision that would not fit in one Kafka record into parts that do (topology
 * DESIGN.md, "Oversized records"): n parts, each with the whole header and the i-th of n even
 * slices of the inputs and of the changes, n the smallest power of two whose parts all fit. A
 * pure function of the decision, so a replay splits exactly as the live run did.
 */
final class DecisionParts {
  /**
   * The default budget of one decision record: half of Kafka's default {@code max.request.size}
   * (1 MiB), leaving room for the key, headers and the record batch. A node of 2,000 pods whose
   * limits all change takes about 2 parts.
   */
  static final int DEFAULT_MAX_BYTES = 512 * 1024;

  private DecisionParts() {}

  /** A decision no split brings under the budget (a single pod's entry is larger). */
  static final class TooLarge extends RuntimeException {
    TooLarge(NodeDecision d, int maxBytes) {
      super("node " + d.node() + ": the decision at " + d.at() + " (" + d.inputs().size() + " inputs, "
          + d.changes().size() + " changes) does not fit in " + maxBytes + " bytes even split per pod");
    }
  }

  /**
   * The decision itself when it fits in {@code maxBytes} serialized, else its parts in order.
   *
   * @throws TooLarge when even one pod per part does not fit
   */
  static List<NodeDecision> split(NodeDecision decision, int maxBytes) {
    if (DecisionSizeBound.of(decision) <= maxBytes) {
      return List.of(decision); // fits for sure: serializing it to learn its size would say the same
    }
    int size = JsonCodec.encode(decision).length;
    if (size <= maxBytes) {
      return List.of(decision);
    }
    int most = Math.max(decision.inputs().size(), decision.changes().size());
    // Fewer than size/maxBytes parts cannot fit (each part repeats the header): start at the
    // power of two that could.
    int least = (int) Math.min(Integer.MAX_VALUE / 2, (size + (long) maxBytes - 1) / maxBytes);
    for (int n = Math.min(Integer.highestOneBit(Math.max(least - 1, 1)) << 1, Math.max(most, 2)); ;
        n = Math.min(n * 2, most)) {
      List<NodeDecision> parts = parts(decision, n);
      if (parts.stream().allMatch(p -> JsonCodec.encode(p).length <= maxBytes)) {
        return parts;
      }
      if (n >= most) {
        throw new TooLarge(decision, maxBytes);
      }
    }
  }

  private static List<NodeDecision> parts(NodeDecision d, int n) {
    List<NodeDecision> parts = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      List<DecisionInput> inputs = slice(d.inputs(), i, n);
      List<PodChange> changes = slice(d.changes(), i, n);
      parts.add(d.slice(inputs, changes, new NodeDecision.Part(i + 1, n)));
    }
    return parts;
  }

  /** The i-th of n contiguous, near-equal slices. */
  private static <T> List<T> slice(List<T> all, int i, int n) {
    return all.subList((int) ((long) all.size() * i / n), (int) ((long) all.size() * (i + 1) / n));
  }
}
