package dev.kubeheadroom.kubereal.differential;

import io.fabric8.kubernetes.api.model.LimitRange;
import io.fabric8.kubernetes.api.model.LimitRangeBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.NodeStatusBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceQuota;
import io.fabric8.kubernetes.api.model.ResourceQuotaBuilder;
import io.fabric8.kubernetes.api.model.rbac.PolicyRuleBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;
import java.util.List;
import java.util.Map;

/** The same objects put in place on either server, through its admin client. */
final class Given {
  static final String NODE = "n1";
  static final String IMAGE = "registry.k8s.io/pause:3.10";

  private Given() {}

  /**
   * Node {@link #NODE} (8 CPUs), where the pods are bound, if it is not there yet: a real
   * server's admission refuses a resize of a pod whose node does not exist or lacks the room.
   */
  static void node(Front f) {
    node(f, NODE, "8");
  }

  /** A Node with {@code cpu} CPUs allocatable, if it is not there yet. */
  static void node(Front f, String name, String cpu) {
    if (f.admin().nodes().withName(name).get() == null) {
      Node node = f.admin().nodes().resource(new NodeBuilder().withNewMetadata().withName(name).endMetadata().build())
          .create();
      Map<String, Quantity> size = Map.of("cpu", new Quantity(cpu), "memory", new Quantity("32Gi"),
          "pods", new Quantity("110"));
      node.setStatus(new NodeStatusBuilder().withCapacity(size).withAllocatable(size).build());
      f.admin().nodes().resource(node).updateStatus();
    }
  }

  static void namespace(Front f, String ns) {
    f.admin().namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(ns).endMetadata().build())
        .create();
  }

  /** A pod bound to {@link #NODE} with one container {@code app} at {@code request}/{@code limit} CPU. */
  static Pod pod(Front f, String ns, String name, String request, String limit) {
    return pod(f, ns, name, request, limit, NODE);
  }

  static Pod pod(Front f, String ns, String name, String request, String limit, String node) {
    return f.admin().pods().inNamespace(ns).resource(new PodBuilder()
        .withNewMetadata().withName(name).withNamespace(ns).endMetadata()
        .withNewSpec().withNodeName(node)
        .addNewContainer().withName("app").withImage(IMAGE).withNewResources()
        .withRequests(Map.of("cpu", new Quantity(request), "memory", new Quantity("64Mi")))
        .withLimits(Map.of("cpu", new Quantity(limit), "memory", new Quantity("64Mi")))
        .endResources().endContainer()
        .endSpec().build()).create();
  }

  static LimitRange containerMaxCpu(Front f, String ns, String max) {
    return f.admin().limitRanges().inNamespace(ns).resource(new LimitRangeBuilder()
        .withNewMetadata().withName("caps").withNamespace(ns).endMetadata()
        .withNewSpec().addNewLimit().withType("Container").withMax(Map.of("cpu", new Quantity(max)))
        .endLimit().endSpec().build()).create();
  }

  /** A quota {@code compute} on {@code limits.cpu}, its status primed as the quota controller would. */
  static ResourceQuota quotaOnCpuLimits(Front f, String ns, String hard) {
    ResourceQuota quota = f.admin().resourceQuotas().inNamespace(ns).resource(new ResourceQuotaBuilder()
        .withNewMetadata().withName("compute").withNamespace(ns).endMetadata()
        .withNewSpec().withHard(Map.of("limits.cpu", new Quantity(hard))).endSpec().build()).create();
    f.primeQuota(quota);
    return quota;
  }

  /** Grants ServiceAccount {@code ns/sa} {@code verbs} on core {@code resources} in {@code ns}. */
  static void grant(Front f, String ns, String sa, List<String> verbs, List<String> resources) {
    String name = sa + "-" + String.join("-", verbs);
    f.admin().rbac().roles().inNamespace(ns).resource(new RoleBuilder()
        .withNewMetadata().withName(name).withNamespace(ns).endMetadata()
        .withRules(new PolicyRuleBuilder().withApiGroups("").withResources(resources).withVerbs(verbs).build())
        .build()).create();
    f.admin().rbac().roleBindings().inNamespace(ns).resource(new RoleBindingBuilder()
        .withNewMetadata().withName(name).withNamespace(ns).endMetadata()
        .withNewRoleRef().withApiGroup("rbac.authorization.k8s.io").withKind("Role").withName(name).endRoleRef()
        .addNewSubject().withKind("ServiceAccount").withName(sa).withNamespace(ns).endSubject()
        .build()).create();
  }
}
