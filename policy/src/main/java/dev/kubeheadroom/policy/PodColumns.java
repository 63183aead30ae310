package dev.kubeheadroom.policy;

import java.util.List;
import java.util.Objects;

/**
 * One node's pods as the policy reads them, a column per field (row i is one pod, input order),
 * and the columns {@link SlackPolicy#computeNode(long, PodColumns, PolicyConfig)} writes for
 * each managed row: its target, reason and whether it applies. The same inputs as a list of
 * {@link PodInput}s, without an object per pod: a caller deciding a node at every change keeps
 * its pods as primitives and asks for records only for the pods whose decision changes
 * something. The record entry point ({@link SlackPolicy#computeNode(long, List, PolicyConfig)})
 * goes through these columns, so both apply one set of rules.
 */
public final class PodColumns {
  private long[] requestMilli;
  private long[] currentLimitMilli;
  private boolean[] managed;
  private long[] userCapMilli;
  private long[] targetMilli;
  private Reason[] reason;
  private boolean[] apply;
  private int size;

  /** {@code size} rows, each to be {@link #set} before the policy reads it. */
  public PodColumns(int size) {
    allocate(size);
    this.size = size;
  }

  /**
   * The columns made {@code rows} long, each row to be {@link #set} again: a caller deciding node
   * after node keeps one set of columns (grown when a node has more pods) instead of making one
   * per node.
   */
  public void resize(int rows) {
    if (rows > requestMilli.length) {
      allocate(Math.max(rows, 2 * requestMilli.length));
    }
    size = rows;
  }

  private void allocate(int capacity) {
    requestMilli = new long[capacity];
    currentLimitMilli = new long[capacity];
    managed = new boolean[capacity];
    userCapMilli = new long[capacity];
    targetMilli = new long[capacity];
    reason = new Reason[capacity];
    apply = new boolean[capacity];
  }

  /** The columns of {@code pods}, in order. */
  public static PodColumns of(List<PodInput> pods) {
    PodColumns columns = new PodColumns(pods.size());
    for (int i = 0; i < pods.size(); i++) {
      PodInput p = pods.get(i);
      columns.set(i, p.requestMilli(), p.currentLimitMilli(), p.managed(), p.userCapMilli());
    }
    return columns;
  }

  /** Row {@code i}'s inputs, as strict as a {@link PodInput}'s. */
  public void set(int i, long requestMilli, long currentLimitMilli, boolean managed, long userCapMilli) {
    Objects.checkIndex(i, size);
    if (requestMilli < 0 || currentLimitMilli < 0 || userCapMilli < 0) {
      throw new IllegalArgumentException("pod " + i + ": CPU quantities must be >= 0, got request "
          + requestMilli + ", current limit " + currentLimitMilli + ", user cap " + userCapMilli);
    }
    this.requestMilli[i] = requestMilli;
    this.currentLimitMilli[i] = currentLimitMilli;
    this.managed[i] = managed;
    this.userCapMilli[i] = userCapMilli;
    this.targetMilli[i] = 0;
    this.reason[i] = null;
    this.apply[i] = false;
  }

  public int size() {
    return size;
  }

  public long requestMilli(int i) {
    return requestMilli[i];
  }

  public long currentLimitMilli(int i) {
    return currentLimitMilli[i];
  }

  public boolean managed(int i) {
    return managed[i];
  }

  public long userCapMilli(int i) {
    return userCapMilli[i];
  }

  /** A managed row's target, once computed. */
  public long targetMilli(int i) {
    return targetMilli[i];
  }

  /** A managed row's reason, once computed (null for an unmanaged row). */
  public Reason reason(int i) {
    return reason[i];
  }

  /** Whether a managed row's change is worth a patch (outside the deadband), once computed. */
  public boolean apply(int i) {
    return apply[i];
  }

  /** Row {@code i}'s verdict (what a {@link Decision} carries, without its key). */
  void decide(int i, long target, Reason why) {
    targetMilli[i] = target;
    reason[i] = why;
    apply[i] = SlackPolicy.applies(why);
  }

  /**
   * Row {@code i}'s verdict as another policy's record gave it ({@link HierarchicalPolicy}, which
   * has no column entry point), so a caller reads every policy's verdicts one way.
   */
  public void setDecision(int i, Decision decision) {
    targetMilli[i] = decision.targetLimitMilli();
    reason[i] = decision.reason();
    apply[i] = decision.apply();
  }

  /** Row {@code i}'s verdict as a {@link Decision} under {@code key}. */
  public Decision decision(int i, String key) {
    return new Decision(key, targetMilli[i], apply[i], reason[i]);
  }
}
