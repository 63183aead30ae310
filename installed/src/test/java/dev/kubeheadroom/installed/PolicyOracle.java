package dev.kubeheadroom.installed;

import dev.kubeheadroom.kubedouble.ApiServerDouble;
import dev.kubeheadroom.policy.ContainerInput;
import dev.kubeheadroom.policy.Decision;
import dev.kubeheadroom.policy.PodInput;
import dev.kubeheadroom.policy.PolicyConfig;
import dev.kubeheadroom.policy.SlackPolicy;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * What the policy says for the cluster as it is now, independently of the pipeline: for each of
 * the given nodes, {@link SlackPolicy#computeNode} over the pods bound to it as the API server
 * stores them, at the sample HeadroomConfig's values (the defaults). Converged = no managed pod's
 * decision would apply (every limit within the deadband of its target).
 *
 * <p>Only the plain pods the fault suite creates are judged: one namespace, every pod managed
 * unless its requests leave the 64-bit millicore range (the topology's {@code cpu-out-of-range}).
 */
final class PolicyOracle {
  private static final BigDecimal MAX_MILLI = BigDecimal.valueOf(Long.MAX_VALUE);

  private final ApiServerDouble api;
  private final String namespace;
  private final Map<String, Long> allocatableMilli;

  PolicyOracle(ApiServerDouble api, String namespace, Map<String, Long> allocatableMilli) {
    this.api = api;
    this.namespace = namespace;
    this.allocatableMilli = Map.copyOf(allocatableMilli);
  }

  String namespace() {
    return namespace;
  }

  /** Pods ({@code ns/name}) whose limit the policy would still change, with target and limit. */
  Map<String, String> unconverged(Set<String> ignored) {
    return unconverged(ignored, Set.of());
  }

  /**
   * As above, the pods of {@code backingOff} unmanaged: a pod in its refusal backoff is not
   * eligible (docs/design/config.md, "Eligibility"), so its node's managed requests and pods
   * leave it out and its neighbours' shares grow until the backoff ends.
   */
  Map<String, String> unconverged(Set<String> ignored, Set<String> backingOff) {
    Map<String, List<Pod>> byNode = new TreeMap<>();
    for (Pod pod : api.pods()) {
      String node = pod.getSpec().getNodeName();
      if (node != null && allocatableMilli.containsKey(node) && pod.getMetadata().getDeletionTimestamp() == null) {
        byNode.computeIfAbsent(node, n -> new ArrayList<>()).add(pod);
      }
    }
    Map<String, String> off = new TreeMap<>();
    byNode.forEach((node, pods) -> {
      List<PodInput> inputs = pods.stream().map(this::input)
          .map(in -> backingOff.contains(in.key()) ? new PodInput(in.key(), in.requestMilli(), in.currentLimitMilli(),
              false, in.userCapMilli()) : in)
          .toList();
      for (Decision d : SlackPolicy.computeNode(allocatableMilli.get(node), inputs, PolicyConfig.DEFAULTS).decisions()) {
        if (d.apply() && !ignored.contains(d.key())) {
          PodInput in = inputs.stream().filter(i -> i.key().equals(d.key())).findFirst().orElseThrow();
          off.put(d.key(), in.currentLimitMilli() + "m -> " + d.targetLimitMilli() + "m");
        }
      }
    });
    return off;
  }

  private PodInput input(Pod pod) {
    List<ContainerInput> containers = pod.getSpec().getContainers().stream().map(PolicyOracle::container).toList();
    long request = ContainerInput.podRequestMilli(containers);
    boolean managed = namespace.equals(pod.getMetadata().getNamespace()) && request > 0 && request < Long.MAX_VALUE;
    return new PodInput(pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName(), request,
        ContainerInput.podCurrentLimitMilli(containers), managed, 0);
  }

  private static ContainerInput container(Container c) {
    Map<String, Quantity> requests = c.getResources() == null ? null : c.getResources().getRequests();
    Map<String, Quantity> limits = c.getResources() == null ? null : c.getResources().getLimits();
    return new ContainerInput(c.getName(), milli(requests, "cpu"), milli(limits, "cpu"), false);
  }

  /** Millicores rounded up (as {@code Quantity.MilliValue}), capped at the 64-bit range. */
  static long milli(Map<String, Quantity> quantities, String resource) {
    Quantity q = quantities == null ? null : quantities.get(resource);
    if (q == null) {
      return 0;
    }
    BigDecimal m = Quantity.getAmountInBytes(q).movePointRight(3).setScale(0, RoundingMode.CEILING);
    return m.min(MAX_MILLI).longValueExact();
  }
}
