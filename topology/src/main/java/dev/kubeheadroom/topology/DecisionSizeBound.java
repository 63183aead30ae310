package dev.kubeheadroom.topology;

import dev.kubeheadroom.schemas.ContainerChange;
import dev.kubeheadroom.schemas.DecisionInput;
import dev.kubeheadroom.schemas.NodeDecision;
import dev.kubeheadroom.schemas.PodChange;

/**
 * An upper bound on a decision's serialized size ({@code JsonCodec.encode(d).length}) without
 * serializing it: {@link DecisionParts#split} serializes only a decision this bound does not
 * already put under the budget, so the split stays exactly what it was while a typical node's
 * decision (tens of pods, a few KB against a 512 KiB budget) costs a walk over its strings.
 *
 * <p>Each string counts 6 bytes per char (the most JSON's {@code \}{@code u00XX} escape or UTF-8
 * takes) plus its quotes; everything else of a record (field names, numbers, booleans, the
 * instant, punctuation) is a fixed allowance per record that is several times what it can take
 * (a long is at most 20 chars, a double 24, an instant under 40). {@code DecisionSizeBoundTest}
 * checks the bound on extreme values, and fails when a record gains a component, so a new field
 * is counted here.
 */
final class DecisionSizeBound {
  /** The header: node, at, generation, policy, dryRun, config, stats, part, schemaVersion. */
  static final long HEADER = 2048;
  /** One input without its strings: 4 numbers, a boolean, a weight, a gang ceiling. */
  static final long INPUT = 512;
  /** One change without its strings and containers: 2 numbers, the list's brackets. */
  static final long CHANGE = 512;
  /** One container change without its name: 2 numbers. */
  static final long CONTAINER = 256;

  private DecisionSizeBound() {}

  static long of(NodeDecision d) {
    long size = HEADER + text(d.node()) + text(d.policy()) + text(d.pool());
    for (DecisionInput in : d.inputs()) {
      size += INPUT + text(in.key()) + text(in.tenant()) + text(in.gang());
    }
    for (PodChange c : d.changes()) {
      size += CHANGE + text(c.uid()) + text(c.namespace()) + text(c.name()) + text(c.reason());
      for (ContainerChange k : c.containers()) {
        size += CONTAINER + text(k.name());
      }
    }
    return size;
  }

  private static long text(String s) {
    return s == null ? 4 : 6L * s.length() + 2; // null is written as null (4 bytes) or not at all
  }
}
