package dev.kubeheadroom.topology.booking;

import dev.kubeheadroom.policy.ContainerInput;
import dev.kubeheadroom.policy.LimitRangeCaps;
import dev.kubeheadroom.policy.PodColumns;
import dev.kubeheadroom.policy.PodInput;
import dev.kubeheadroom.policy.Tenant;
import dev.kubeheadroom.schemas.ClusterConfig;
import dev.kubeheadroom.schemas.ContainerSnapshot;
import dev.kubeheadroom.schemas.Ineligibility;
import dev.kubeheadroom.schemas.NamespaceInfo;
import dev.kubeheadroom.schemas.PodSnapshot;
import dev.kubeheadroom.schemas.Tenancy;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Every live pod of a node as one decision sees it, a row per pod in uid order: its entry, why it
 * is not managed, its namespace, and the policy's inputs as {@link PodColumns}. A decision reads
 * every pod of its node, mostly to find that nothing changes; the rows hold what it reads as
 * primitives (from each snapshot's {@link PodFacts}), and the policy's records ({@link PodInput},
 * the container list) are made only for a row that asks ({@link #input}, {@link #containers}).
 */
final class PodRows {
  /**
   * Each thread's rows, lent to one decision at a time ({@link #lend}): a node is decided at
   * every change on it, and the rows of one decision are garbage as soon as it is taken.
   */
  private static final ThreadLocal<PodRows> SPARE = ThreadLocal.withInitial(() -> new PodRows(8));

  private PodEntry[] entries;
  private Ineligibility[] whyNot;
  /** Per row, its namespace (null when unknown); kept only under hierarchical tenancy. */
  private NamespaceInfo[] namespaces;
  private final PodColumns columns;
  private final NamespaceGate gate = new NamespaceGate();
  /** Per row, its containers at a pending target's limits, or null when at the snapshot's. */
  private List<ContainerInput>[] pendingContainers;
  private boolean keepNamespaces;
  private int size;
  private boolean lent;

  private PodRows(int capacity) {
    entries = new PodEntry[capacity];
    whyNot = new Ineligibility[capacity];
    columns = new PodColumns(capacity);
  }

  /** The booking's pods at {@code now} (booking.snapshot() may be null: no pod is then managed). */
  static PodRows of(NodeBooking booking, ClusterConfig config, Function<String, NamespaceInfo> namespaces,
      Instant now) {
    return new PodRows(booking.pods().size()).fill(booking, config, namespaces, now);
  }

  /**
   * {@link #of}, in this thread's spare rows (unless a decision in progress holds them), which the
   * caller gives back ({@link #giveBack}) once it has read them: nothing it returns may hold them.
   */
  static PodRows lend(NodeBooking booking, ClusterConfig config, Function<String, NamespaceInfo> namespaces,
      Instant now) {
    PodRows spare = SPARE.get();
    PodRows rows = spare.lent ? new PodRows(booking.pods().size()) : spare;
    rows.lent = true;
    return rows.fill(booking, config, namespaces, now);
  }

  /** Done with lent rows: they forget the entries they held (so these are not kept alive). */
  void giveBack() {
    lent = false;
    gate.reset(null, null);
    Arrays.fill(entries, 0, size, null);
    if (keepNamespaces) { // else the array may be shorter: the last decision that kept them had fewer pods
      Arrays.fill(namespaces, 0, size, null);
    }
    if (pendingContainers != null) {
      Arrays.fill(pendingContainers, 0, Math.min(size, pendingContainers.length), null);
    }
  }

  private PodRows fill(NodeBooking booking, ClusterConfig config, Function<String, NamespaceInfo> namespaces,
      Instant now) {
    size = booking.pods().size();
    keepNamespaces = config.tenancy() == Tenancy.NAMESPACES;
    if (size > entries.length) {
      entries = new PodEntry[size];
      whyNot = new Ineligibility[size];
    }
    if (keepNamespaces && (this.namespaces == null || this.namespaces.length < size)) {
      this.namespaces = new NamespaceInfo[entries.length];
    }
    if (pendingContainers != null) {
      Arrays.fill(pendingContainers, 0, Math.min(size, pendingContainers.length), null);
    }
    columns.resize(size);
    boolean nodeResizable = Eligibility.resizable(booking.snapshot());
    NamespaceGate gate = this.gate.reset(config, namespaces);
    int i = 0;
    for (PodEntry entry : booking.pods().values()) {
      fill(i++, entry, nodeResizable, gate.at(entry.facts().namespace()), config, now);
    }
    return this;
  }

  private void fill(int i, PodEntry entry, boolean nodeResizable, NamespaceGate ns, ClusterConfig config,
      Instant now) {
    PodFacts facts = entry.facts();
    Ineligibility why = Eligibility.whyNot(entry, nodeResizable, ns.managed(), config, now);
    List<ContainerInput> containers = facts.containers();
    long currentLimit = facts.currentLimitMilli();
    long fixedLimits = facts.fixedLimitsMilli();
    Pending pending = why == null ? NodeDecider.usablePending(entry, config, now) : null;
    if (pending != null) {
      // An unconfirmed target stands: the policy sees its limits as the pod's current ones.
      containers = atPending(entry.pod(), pending);
      currentLimit = ContainerInput.podCurrentLimitMilli(containers);
      fixedLimits = NodeDecider.fixedLimitsMilli(entry.pod(), containers);
      pendingContainers()[i] = containers;
    }
    entries[i] = entry;
    whyNot[i] = why;
    if (keepNamespaces) {
      namespaces[i] = ns.info();
    }
    columns.set(i, facts.requestMilli(), currentLimit, why == null,
        NodeDecider.userCap(facts.maxCpuMilli(), ns.caps(), containers, fixedLimits));
  }

  private static List<ContainerInput> atPending(PodSnapshot pod, Pending pending) {
    List<ContainerSnapshot> bearing = pod.limitBearingContainers();
    List<ContainerInput> containers = new ArrayList<>(bearing.size());
    for (ContainerSnapshot c : bearing) {
      Long emitted = pending.containers().get(c.name());
      long limit = emitted != null ? emitted : c.cpuLimitMilli();
      containers.add(new ContainerInput(c.name(), c.cpuRequestMilli(), limit, c.memoryGuaranteed()));
    }
    return containers;
  }

  @SuppressWarnings("unchecked") // an array of lists: one slot per row, filled only for a pending target
  private List<ContainerInput>[] pendingContainers() {
    if (pendingContainers == null || pendingContainers.length < entries.length) {
      pendingContainers = new List[entries.length];
    }
    return pendingContainers;
  }

  int size() {
    return size;
  }

  PodEntry entry(int i) {
    return entries[i];
  }

  String uid(int i) {
    return entries[i].pod().uid();
  }

  /** The first gate the pod fails, or null when it is managed. */
  Ineligibility whyNot(int i) {
    return whyNot[i];
  }

  /** The policy's inputs, and after it ran, its verdicts. */
  PodColumns columns() {
    return columns;
  }

  /** Row {@code i} as the policy's record. */
  PodInput input(int i) {
    return new PodInput(uid(i), columns.requestMilli(i), columns.currentLimitMilli(i), columns.managed(i),
        columns.userCapMilli(i));
  }

  /** Every row as the policy's record, in order. */
  List<PodInput> inputs() {
    List<PodInput> inputs = new ArrayList<>(size);
    for (int i = 0; i < size; i++) {
      inputs.add(input(i));
    }
    return inputs;
  }

  /** Row {@code i}'s limit-bearing containers as the policy sees them (at a pending target's limits). */
  List<ContainerInput> containers(int i) {
    List<ContainerInput> pending = pendingContainers == null || i >= pendingContainers.length ? null
        : pendingContainers[i];
    return pending != null ? pending : entries[i].facts().containers();
  }

  /** Each row's tenant under hierarchical tenancy ({@link NamespaceTenants}), in order (only then). */
  List<Tenant> tenants() {
    return NamespaceTenants.of(size, i -> entries[i].pod().namespace(), (i, ns) -> namespaces[i]);
  }

  /**
   * Each namespace's gate and LimitRange caps, judged once per decision. Pods of one namespace
   * tend to share a node (and most nodes hold a few pods), so the namespace at hand answers most
   * rows, and a map is made only for a node with pods of several namespaces.
   */
  private static final class NamespaceGate {
    /** A namespace as the decision judged it. */
    private record Seen(NamespaceInfo info, boolean managed, LimitRangeCaps caps) {}

    private ClusterConfig config;
    private Function<String, NamespaceInfo> lookup;
    private Map<String, Seen> seen;
    private String name;
    private NamespaceInfo info;
    private boolean managed;
    private LimitRangeCaps caps;

    /** The gate for a new decision: nothing judged yet. */
    NamespaceGate reset(ClusterConfig decidedWith, Function<String, NamespaceInfo> namespaces) {
      config = decidedWith;
      lookup = namespaces;
      if (seen != null) {
        seen.clear();
      }
      name = null;
      info = null;
      caps = null;
      return this;
    }

    /** This gate at {@code namespace} (its answers below are then that namespace's). */
    NamespaceGate at(String namespace) {
      if (namespace.equals(name)) {
        return this;
      }
      if (name != null) {
        if (seen == null) {
          seen = new HashMap<>();
        }
        seen.putIfAbsent(name, new Seen(info, managed, caps));
      }
      Seen before = seen == null ? null : seen.get(namespace);
      name = namespace;
      if (before != null) {
        info = before.info();
        managed = before.managed();
        caps = before.caps();
      } else {
        info = lookup.apply(namespace);
        managed = config.manages(info);
        caps = info == null ? null : info.limitRangeCaps();
      }
      return this;
    }

    /** The namespace, or null when not known yet. */
    NamespaceInfo info() {
      return info;
    }

    /** {@link ClusterConfig#manages} the namespace. */
    boolean managed() {
      return managed;
    }

    /** Its LimitRange caps, or null when the namespace is not known. */
    LimitRangeCaps caps() {
      return caps;
    }
  }
}
