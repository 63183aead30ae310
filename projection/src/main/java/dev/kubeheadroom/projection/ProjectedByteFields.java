package dev.kubeheadroom.projection;

import static dev.kubeheadroom.projection.JsonBytes.REFUSED;


import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerResizePolicy;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeStatus;
import io.fabric8.kubernetes.api.model.NodeSystemInfo;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@link ProjectedFields} over a line's bytes ({@link JsonBytes}): the same fields of a Pod or a
 * Node bound into the same fabric8 objects, the same shapes accepted (a string where a string
 * belongs, an integer generation, a boolean {@code controller}, no nulls), everything else
 * refused to the text path. Strings that repeat across a log (namespaces, node names, label keys,
 * phases, quantities ...) come from a cache; names, uids and resource versions are made fresh.
 * Not thread-safe (one per reader).
 */
final class ProjectedByteFields {
  /** Strings a log repeats: a few hundred node names and namespaces, keys, phases, quantities. */
  private final ByteStrings vocabulary = new ByteStrings(2048);
  private final QuantityCache quantities = new QuantityCache(256);

  ByteStrings vocabulary() {
    return vocabulary;
  }

  /** The pod at the cursor's next field (after {@code apiVersion} and {@code kind}). */
  Pod pod(JsonBytes j) {
    Pod pod = new Pod();
    while (j.field()) {
      switch (j.fieldName()) {
        case METADATA -> pod.setMetadata(meta(j));
        case SPEC -> pod.setSpec(podSpec(j));
        case STATUS -> pod.setStatus(podStatus(j));
        case API_VERSION, KIND -> throw REFUSED; // a duplicate: the full path takes the last one
        default -> j.skipValue();
      }
    }
    return pod;
  }

  /** The node at the cursor's next field (after {@code apiVersion} and {@code kind}). */
  Node node(JsonBytes j) {
    Node node = new Node();
    while (j.field()) {
      switch (j.fieldName()) {
        case METADATA -> node.setMetadata(meta(j));
        case STATUS -> node.setStatus(nodeStatus(j));
        case API_VERSION, KIND -> throw REFUSED;
        default -> j.skipValue();
      }
    }
    return node;
  }

  private ObjectMeta meta(JsonBytes j) {
    j.startObject();
    ObjectMeta meta = new ObjectMeta();
    while (j.field()) {
      switch (j.fieldName()) {
        case NAME -> meta.setName(j.string());
        case NAMESPACE -> meta.setNamespace(j.string(vocabulary));
        case UID -> meta.setUid(j.string());
        case RESOURCE_VERSION -> meta.setResourceVersion(j.string());
        case GENERATION -> meta.setGeneration(j.integer());
        case LABELS -> meta.setLabels(strings(j));
        case ANNOTATIONS -> meta.setAnnotations(strings(j));
        case OWNER_REFERENCES -> meta.setOwnerReferences(owners(j));
        default -> j.skipValue();
      }
    }
    return meta;
  }

  private List<OwnerReference> owners(JsonBytes j) {
    j.startArray();
    List<OwnerReference> owners = new ArrayList<>(1);
    while (j.element()) {
      j.startObject();
      OwnerReference ref = new OwnerReference();
      while (j.field()) {
        switch (j.fieldName()) {
          case KIND -> ref.setKind(j.string(vocabulary));
          case NAME -> ref.setName(j.string());
          case UID -> ref.setUid(j.string());
          case CONTROLLER -> ref.setController(j.bool());
          default -> j.skipValue();
        }
      }
      owners.add(ref);
    }
    return owners;
  }

  private PodSpec podSpec(JsonBytes j) {
    j.startObject();
    PodSpec spec = new PodSpec();
    while (j.field()) {
      switch (j.fieldName()) {
        case NODE_NAME -> spec.setNodeName(j.string(vocabulary));
        case CONTAINERS -> spec.setContainers(containers(j));
        case INIT_CONTAINERS -> spec.setInitContainers(containers(j));
        case RESOURCES -> spec.setResources(resources(j));
        default -> j.skipValue();
      }
    }
    return spec;
  }

  private List<Container> containers(JsonBytes j) {
    j.startArray();
    List<Container> containers = new ArrayList<>(2);
    while (j.element()) {
      j.startObject();
      Container c = new Container();
      while (j.field()) {
        switch (j.fieldName()) {
          case NAME -> c.setName(j.string(vocabulary));
          case RESTART_POLICY -> c.setRestartPolicy(j.string(vocabulary));
          case RESOURCES -> c.setResources(resources(j));
          case RESIZE_POLICY -> c.setResizePolicy(resizePolicy(j));
          default -> j.skipValue();
        }
      }
      containers.add(c);
    }
    return containers;
  }

  private ResourceRequirements resources(JsonBytes j) {
    j.startObject();
    ResourceRequirements r = new ResourceRequirements();
    while (j.field()) {
      switch (j.fieldName()) {
        case REQUESTS -> r.setRequests(quantities(j));
        case LIMITS -> r.setLimits(quantities(j));
        default -> j.skipValue();
      }
    }
    return r;
  }

  private List<ContainerResizePolicy> resizePolicy(JsonBytes j) {
    j.startArray();
    List<ContainerResizePolicy> out = new ArrayList<>(2);
    while (j.element()) {
      j.startObject();
      ContainerResizePolicy policy = new ContainerResizePolicy();
      while (j.field()) {
        switch (j.fieldName()) {
          case RESOURCE_NAME -> policy.setResourceName(j.string(vocabulary));
          case RESTART_POLICY -> policy.setRestartPolicy(j.string(vocabulary));
          default -> j.skipValue();
        }
      }
      out.add(policy);
    }
    return out;
  }

  private PodStatus podStatus(JsonBytes j) {
    j.startObject();
    PodStatus status = new PodStatus();
    while (j.field()) {
      switch (j.fieldName()) {
        case PHASE -> status.setPhase(j.string(vocabulary));
        case QOS_CLASS -> status.setQosClass(j.string(vocabulary));
        case RESIZE -> status.setResize(j.string(vocabulary));
        case CONDITIONS -> status.setConditions(conditions(j));
        default -> j.skipValue();
      }
    }
    return status;
  }

  private List<PodCondition> conditions(JsonBytes j) {
    j.startArray();
    List<PodCondition> out = new ArrayList<>(2);
    while (j.element()) {
      j.startObject();
      PodCondition c = new PodCondition();
      while (j.field()) {
        switch (j.fieldName()) {
          case TYPE -> c.setType(j.string(vocabulary));
          case STATUS -> c.setStatus(j.string(vocabulary));
          case REASON -> c.setReason(j.string(vocabulary));
          default -> j.skipValue();
        }
      }
      out.add(c);
    }
    return out;
  }

  private NodeStatus nodeStatus(JsonBytes j) {
    j.startObject();
    NodeStatus status = new NodeStatus();
    while (j.field()) {
      switch (j.fieldName()) {
        case ALLOCATABLE -> status.setAllocatable(quantities(j));
        case NODE_INFO -> status.setNodeInfo(nodeInfo(j));
        default -> j.skipValue();
      }
    }
    return status;
  }

  private NodeSystemInfo nodeInfo(JsonBytes j) {
    j.startObject();
    NodeSystemInfo info = new NodeSystemInfo();
    while (j.field()) {
      switch (j.fieldName()) {
        case OPERATING_SYSTEM -> info.setOperatingSystem(j.string(vocabulary));
        default -> j.skipValue();
      }
    }
    return info;
  }

  private Map<String, String> strings(JsonBytes j) {
    j.startObject();
    Map<String, String> out = new LinkedHashMap<>(4); // a few labels: a table of 4, not 16
    while (j.field()) {
      String key = j.name(vocabulary);
      out.put(key, j.string(vocabulary));
    }
    return out;
  }

  /** A quantity map as fabric8's {@code Quantity} deserializer builds it from strings. */
  private Map<String, Quantity> quantities(JsonBytes j) {
    j.startObject();
    Map<String, Quantity> out = new LinkedHashMap<>(4);
    while (j.field()) {
      String key = j.name(vocabulary);
      out.put(key, quantities.of(j.string(vocabulary)));
    }
    return out;
  }
}
