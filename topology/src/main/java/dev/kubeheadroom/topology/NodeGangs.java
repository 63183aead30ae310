package dev.kubeheadroom.topology;

import dev.kubeheadroom.schemas.CeilingRatio;
import dev.kubeheadroom.schemas.GangMember;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A node's gang state, in the {@code headroom-gang-nodes} store (key: node): what it last
 * reported to each gang (so it sends a gang only what changed), and the ceiling each gang last
 * sent it (what it decides with). Sorted maps, so equal states encode to equal bytes.
 *
 * @param reported per gang, the node's members and their own targets as last sent
 * @param ceilings per gang, the lowest ratio of its members on other nodes
 */
public record NodeGangs(Map<String, List<GangMember>> reported, Map<String, CeilingRatio> ceilings) {
  static final NodeGangs EMPTY = new NodeGangs(Map.of(), Map.of());

  public NodeGangs {
    reported = reported == null ? Map.of() : java.util.Collections.unmodifiableMap(new TreeMap<>(reported));
    ceilings = ceilings == null ? Map.of() : java.util.Collections.unmodifiableMap(new TreeMap<>(ceilings));
  }

  boolean isEmpty() {
    return reported.isEmpty() && ceilings.isEmpty();
  }

  NodeGangs withReported(Map<String, List<GangMember>> value) {
    return new NodeGangs(value, ceilings);
  }

  /** With {@code gang}'s ceiling set, or dropped when {@code ceiling} is null. */
  NodeGangs withCeiling(String gang, CeilingRatio ceiling) {
    Map<String, CeilingRatio> next = new TreeMap<>(ceilings);
    if (ceiling == null) {
      next.remove(gang);
    } else {
      next.put(gang, ceiling);
    }
    return new NodeGangs(reported, next);
  }
}
