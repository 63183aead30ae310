package dev.kubeheadroom.bench;

import dev.kubeheadroom.kubedouble.ApiServerDouble;
import dev.kubeheadroom.policy.Decision;
import dev.kubeheadroom.policy.PodInput;
import dev.kubeheadroom.policy.PolicyConfig;
import dev.kubeheadroom.policy.SlackPolicy;
import dev.kubeheadroom.projection.CpuQuantity;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The policy run on the double's pods as they are now: how many managed pods are not where the
 * policy leaves them under {@code config} (a decision with {@code apply}: outside the deadbands
 * of their target). Zero means every managed pod is at its limit; this is the config change's end
 * condition, and on the seeded cluster under the seeding config it must already be zero.
 */
record PolicyCheck(ApiServerDouble api, DesignPointCluster cluster) {

  /** Managed pods the policy would still resize, and how many of them it would shrink. */
  record Off(long pods, long shrinks, List<String> sample) {}

  static PolicyConfig withMaxMultiplier(double maxMultiplier) {
    return PolicyConfig.DEFAULTS.withMaxMultiplier(maxMultiplier);
  }

  Off off(PolicyConfig config) {
    Map<String, List<PodInput>> byNode = new HashMap<>();
    for (Pod pod : api.pods()) {
      String node = pod.getSpec().getNodeName();
      if (node == null || !cluster.allocatable.containsKey(node)) {
        continue;
      }
      long request = 0;
      long limit = 0;
      boolean unlimited = false;
      for (Container c : pod.getSpec().getContainers()) {
        request += milli(c.getResources().getRequests());
        long l = milli(c.getResources().getLimits());
        unlimited |= l == 0;
        limit += l;
      }
      String ns = pod.getMetadata().getNamespace();
      boolean managed = DesignPointCluster.managed(Integer.parseInt(ns.substring(ns.indexOf('-') + 1)));
      byNode.computeIfAbsent(node, n -> new ArrayList<>()).add(
          new PodInput(ns + "/" + pod.getMetadata().getName(), request, unlimited ? 0 : limit, managed, 0));
    }
    long off = 0;
    long shrinks = 0;
    List<String> sample = new ArrayList<>();
    for (Map.Entry<String, List<PodInput>> node : byNode.entrySet()) {
      Map<String, Long> current = new HashMap<>();
      node.getValue().forEach(p -> current.put(p.key(), p.currentLimitMilli()));
      for (Decision d : SlackPolicy.computeNode(cluster.allocatable.get(node.getKey()), node.getValue(), config).decisions()) {
        if (d.apply()) {
          off++;
          long was = current.get(d.key());
          shrinks += d.targetLimitMilli() < was ? 1 : 0;
          if (sample.size() < 5) {
            sample.add(d.key() + "@" + node.getKey() + " " + was + "m->" + d.targetLimitMilli() + "m (" + d.reason() + ")");
          }
        }
      }
    }
    return new Off(off, shrinks, sample);
  }

  private static long milli(Map<String, Quantity> resources) {
    return resources == null ? 0 : CpuQuantity.milliOrZero(resources.get("cpu"));
  }
}
