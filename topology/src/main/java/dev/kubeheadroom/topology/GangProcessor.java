package dev.kubeheadroom.topology;

import dev.kubeheadroom.policy.GangRatio;
import dev.kubeheadroom.schemas.CeilingRatio;
import dev.kubeheadroom.schemas.GangCeiling;
import dev.kubeheadroom.schemas.GangMember;
import dev.kubeheadroom.schemas.GangMembers;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Reduces each gang (§11.6), fed by the {@code gang-members} topic (the nodes' reports,
 * repartitioned by gang): keeps each node's part in the {@code headroom-gangs} store and sends
 * each member node the lowest ratio among the gang's members on the <em>other</em> nodes (the
 * node adds its own members' fresh ratios when it decides, so a change of its own targets needs
 * no round trip, and a gang on one node gets no ceiling from here at all). A node is sent a
 * ceiling only when its value changes, keyed by the node (the join back). Event time only: each
 * ceiling carries the time of the report that moved it.
 */
final class GangProcessor implements Processor<String, GangMembers, String, GangCeiling> {
  private static final StringSerializer KEYS = new StringSerializer();
  private ProcessorContext<String, GangCeiling> context;
  private KeyValueStore<String, GangPart> parts;

  @Override
  public void init(ProcessorContext<String, GangCeiling> context) {
    this.context = context;
    this.parts = context.getStateStore(HeadroomTopology.GANGS_STORE);
  }

  /**
   * The store key of a node's part: the gang's length, the gang, the node, so that one gang's
   * parts share a prefix no other gang's key starts with (gang values are free text).
   */
  static String prefix(String gang) {
    return gang.length() + ":" + gang + "|";
  }

  static String key(String gang, String node) {
    return prefix(gang) + node;
  }

  @Override
  public void process(Record<String, GangMembers> record) {
    GangMembers report = record.value();
    String gang = report.gang();
    String key = key(gang, report.node());
    GangPart old = parts.get(key);
    List<GangCeiling> out = new ArrayList<>();
    if (report.members().isEmpty()) {
      if (old != null) {
        parts.delete(key);
        if (old.sent() != null) {
          out.add(new GangCeiling(gang, report.node(), null)); // it has no member left to cap
        }
      }
    } else {
      parts.put(key, new GangPart(report.members(), old == null ? null : old.sent()));
    }
    Map<String, GangPart> byNode = parts(gang);
    // The two lowest nodes, so each node's "lowest elsewhere" costs O(1): the gang's lowest,
    // or for the node holding it, the runner-up (first in node order on ties).
    String lowestNode = null;
    GangRatio first = null;
    GangRatio second = null;
    for (Map.Entry<String, GangPart> e : byNode.entrySet()) {
      GangRatio r = GangRatio.lowest(ratios(e.getValue().members()));
      if (first == null || r.compareTo(first) < 0) {
        second = first;
        first = r;
        lowestNode = e.getKey();
      } else if (second == null || r.compareTo(second) < 0) {
        second = r;
      }
    }
    for (Map.Entry<String, GangPart> e : byNode.entrySet()) {
      CeilingRatio ceiling = CeilingRatio.of(e.getKey().equals(lowestNode) ? second : first);
      if (!GangLink.sameRatio(ceiling, e.getValue().sent())) {
        parts.put(key(gang, e.getKey()), new GangPart(e.getValue().members(), ceiling));
        out.add(new GangCeiling(gang, e.getKey(), ceiling));
      }
    }
    for (GangCeiling c : out) {
      context.forward(new Record<>(c.node(), c, record.timestamp()));
    }
  }

  /** The gang's parts by node, in node order. */
  private Map<String, GangPart> parts(String gang) {
    String prefix = prefix(gang);
    Map<String, GangPart> byNode = new TreeMap<>();
    try (KeyValueIterator<String, GangPart> it = parts.prefixScan(prefix, KEYS)) {
      while (it.hasNext()) {
        KeyValue<String, GangPart> kv = it.next();
        byNode.put(kv.key.substring(prefix.length()), kv.value);
      }
    }
    return byNode;
  }

  private static List<GangRatio> ratios(List<GangMember> members) {
    List<GangRatio> out = new ArrayList<>(members.size());
    members.forEach(m -> out.add(m.ratio()));
    return out;
  }
}
