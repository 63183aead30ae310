package dev.kubeheadroom.scenarios;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import java.math.BigDecimal;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Replays a scenario's events and checks, after every one, that no node is booked past its CPU. */
final class Bookings {
  private Bookings() {}

  static long milli(Quantity q) {
    return Quantity.getAmountInBytes(q).multiply(BigDecimal.valueOf(1000)).longValueExact();
  }

  /** The most any node was ever booked, as a share of its allocatable CPU. */
  static double peakShare(List<ScenarioEvent> events) {
    Map<String, Long> allocatable = new HashMap<>();
    Map<String, Long> booked = new HashMap<>();
    Map<String, String> boundTo = new HashMap<>();
    Map<String, Long> requests = new HashMap<>();
    double peak = 0;
    for (ScenarioEvent e : events) {
      if (e.object() instanceof Node n) {
        allocatable.put(n.getMetadata().getName(), milli(n.getStatus().getAllocatable().get("cpu")));
      } else if (e.object() instanceof Pod p) {
        String uid = p.getMetadata().getUid();
        String node = p.getSpec().getNodeName();
        boolean ends = e.type() == ScenarioEvent.Type.DELETED
            || "Failed".equals(p.getStatus().getPhase()) || "Succeeded".equals(p.getStatus().getPhase());
        String was = boundTo.remove(uid);
        if (was != null) {
          booked.merge(was, -requests.remove(uid), Long::sum);
        }
        if (node != null && !ends) {
          long cpu = milli(p.getSpec().getContainers().get(0).getResources().getRequests().get("cpu"));
          boundTo.put(uid, node);
          requests.put(uid, cpu);
          long now = booked.merge(node, cpu, Long::sum);
          peak = Math.max(peak, (double) now / allocatable.get(node));
        }
      }
    }
    return peak;
  }
}
