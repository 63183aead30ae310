package dev.kubeheadroom.topology.booking;

import dev.kubeheadroom.policy.GangRatio;
import dev.kubeheadroom.policy.PodColumns;
import dev.kubeheadroom.schemas.CeilingRatio;
import dev.kubeheadroom.schemas.GangMember;
import dev.kubeheadroom.schemas.PodSnapshot;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One node's side of its gangs at a decision (docs/design/headroom-design.txt §11.6): which
 * managed pods are members of which gang, what their own node gives each (the report the gang
 * reduces), and the ceiling each member gets: the lowest of the ratios its gang's members on other
 * nodes reported (the {@code remote} ceilings) and of this node's members, fresh. A gang with one
 * member in all has no ceiling, so it is decided as if in no gang. Pure.
 */
public final class GangCeilings {
  /** No gangs on the node: what a booking without gang members decides with. */
  public static final GangCeilings NONE = new GangCeilings(Map.of(), Map.of(), Map.of());

  private final Map<String, String> gangByUid;
  private final Map<String, GangRatio> ceilingByGang;
  private final Map<String, List<GangMember>> report;

  private GangCeilings(Map<String, String> gangByUid, Map<String, GangRatio> ceilingByGang,
      Map<String, List<GangMember>> report) {
    this.gangByUid = gangByUid;
    this.ceilingByGang = ceilingByGang;
    this.report = report;
  }

  /**
   * The node's gangs from a decision's rows, after the policy ran (their own targets, before any
   * ceiling); {@code remote}: the last ceiling each gang sent this node.
   */
  static GangCeilings of(PodRows rows, List<String> ownerKinds, Map<String, CeilingRatio> remote) {
    Members members = new Members(ownerKinds);
    PodColumns columns = rows.columns();
    for (int i = 0; i < rows.size(); i++) {
      if (columns.managed(i)) {
        members.add(rows.entry(i), columns.requestMilli(i), columns.targetMilli(i));
      }
    }
    return members.ceilings(remote);
  }

  /** The managed pods' gangs, in row (uid) order. */
  private static final class Members {
    private final List<String> ownerKinds;
    private Map<String, String> gangByUid; // most nodes have no gang member: no maps made for them
    private Map<String, List<GangMember>> report;

    Members(List<String> ownerKinds) {
      this.ownerKinds = ownerKinds;
    }

    void add(PodEntry entry, long request, long ownTarget) {
      String gang = entry.facts().gang(ownerKinds);
      if (gang == null || request <= 0 || ownTarget < request) {
        return; // no gang, or nothing a ratio can say (a pod with no request)
      }
      PodSnapshot pod = entry.pod();
      if (gangByUid == null) {
        gangByUid = new HashMap<>();
        report = new TreeMap<>();
      }
      gangByUid.put(pod.uid(), gang);
      report.computeIfAbsent(gang, g -> new ArrayList<>()).add(new GangMember(pod.uid(), request, ownTarget));
    }

    GangCeilings ceilings(Map<String, CeilingRatio> remote) {
      if (gangByUid == null) {
        if (remote.isEmpty()) {
          return NONE;
        }
        gangByUid = new HashMap<>();
        report = new TreeMap<>();
      }
      Map<String, GangRatio> ceilings = new HashMap<>();
      report.forEach((gang, members) -> {
        CeilingRatio elsewhere = remote.get(gang);
        if (elsewhere == null && members.size() < 2) {
          return; // a gang of one (so far) is no gang
        }
        List<GangRatio> ratios = new ArrayList<>(members.size() + 1);
        members.forEach(m -> ratios.add(m.ratio()));
        if (elsewhere != null) {
          ratios.add(elsewhere.toPolicy());
        }
        ceilings.put(gang, GangRatio.lowest(ratios));
      });
      return new GangCeilings(gangByUid, ceilings, report);
    }
  }

  /** The pod's gang, or null. */
  public String gangOf(String uid) {
    return gangByUid.get(uid);
  }

  /** The ceiling the pod's gang puts on it, or null. */
  public GangRatio ceilingOf(String uid) {
    String gang = gangByUid.get(uid);
    return gang == null ? null : ceilingByGang.get(gang);
  }

  /** This node's managed members of each gang and their own targets, by gang, uid order. */
  public Map<String, List<GangMember>> report() {
    return report;
  }

  public boolean isEmpty() {
    return gangByUid.isEmpty();
  }

  /** Whether any gang puts a ceiling on a pod here (most nodes: none, so no pod need be asked). */
  boolean hasCeilings() {
    return !ceilingByGang.isEmpty();
  }
}
