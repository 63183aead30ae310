package dev.kubeheadroom.topology;

import dev.kubeheadroom.schemas.CeilingRatio;
import dev.kubeheadroom.schemas.GangCeiling;
import dev.kubeheadroom.schemas.GangMember;
import dev.kubeheadroom.schemas.GangMembers;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import java.util.function.Consumer;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The booking processor's side of gangs (§11.6), over the {@code headroom-gang-nodes} store: the
 * ceilings a node decides with, and the reports it sends its gangs when its members or their own
 * targets change (the repartition by gang). A node whose pods are in no gang never reads or
 * writes the store after the first decision finds nothing.
 */
final class GangLink {
  private final KeyValueStore<String, NodeGangs> store;

  GangLink(KeyValueStore<String, NodeGangs> store) {
    this.store = store;
  }

  /** The ceilings the node's gangs last sent it. */
  Map<String, CeilingRatio> ceilings(String node) {
    NodeGangs g = store.get(node);
    return g == null ? Map.of() : g.ceilings();
  }

  /**
   * Takes a ceiling for the node; true when it changed what the node would decide with (an equal
   * ratio, however written, changes nothing).
   */
  boolean receive(GangCeiling ceiling) {
    NodeGangs g = Objects.requireNonNullElse(store.get(ceiling.node()), NodeGangs.EMPTY);
    CeilingRatio old = g.ceilings().get(ceiling.gang());
    if (sameRatio(old, ceiling.ceiling())) {
      return false;
    }
    save(ceiling.node(), g.withCeiling(ceiling.gang(), ceiling.ceiling()));
    return true;
  }

  /**
   * Hands {@code send} what the node must tell its gangs after a decision that saw {@code report}
   * (gang → members): a {@link GangMembers} for each gang whose part changed, an empty one for
   * each gang it no longer has members in. Remembers the report once {@code send} returned: a
   * report that could not be sent is not remembered as sent.
   */
  void report(String node, Map<String, List<GangMember>> report, Consumer<List<GangMembers>> send) {
    NodeGangs g = store.get(node);
    Map<String, List<GangMember>> before = g == null ? Map.of() : g.reported();
    if (before.equals(report)) {
      return; // the common case, and every node in no gang
    }
    List<GangMembers> out = new ArrayList<>();
    TreeSet<String> gangs = new TreeSet<>(before.keySet());
    gangs.addAll(report.keySet());
    for (String gang : gangs) {
      List<GangMember> now = report.getOrDefault(gang, List.of());
      if (!now.equals(before.getOrDefault(gang, List.of()))) {
        out.add(new GangMembers(gang, node, now));
      }
    }
    send.accept(out);
    save(node, Objects.requireNonNullElse(g, NodeGangs.EMPTY).withReported(report));
  }

  /** The node is gone: an empty part to each gang it reported to, and its state dropped. */
  List<GangMembers> removed(String node) {
    NodeGangs g = store.get(node);
    if (g == null) {
      return List.of();
    }
    store.delete(node);
    return g.reported().keySet().stream().map(gang -> new GangMembers(gang, node, List.of())).toList();
  }

  private void save(String node, NodeGangs g) {
    if (g.isEmpty()) {
      store.delete(node);
    } else {
      store.put(node, g);
    }
  }

  static boolean sameRatio(CeilingRatio a, CeilingRatio b) {
    if (a == null || b == null) {
      return a == b;
    }
    return a.toPolicy().compareTo(b.toPolicy()) == 0;
  }
}
