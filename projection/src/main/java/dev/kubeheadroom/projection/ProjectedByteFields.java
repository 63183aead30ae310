package dev.kubeheadroom.projection;

import static dev.kubeheadroom.projection.JsonBytes.REFUSED;

import dev.kubeheadroom.projection.JsonBytes.Name;

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
  private static final Name METADATA = new Name("metadata");
  private static final Name SPEC = new Name("spec");
  private static final Name STATUS = new Name("status");
  private static final Name API_VERSION = new Name("apiVersion");
  private static final Name KIND = new Name("kind");
  private static final Name NAME = new Name("name");
  private static final Name NAMESPACE = new Name("namespace");
  private static final Name UID = new Name("uid");
  private static final Name RESOURCE_VERSION = new Name("resourceVersion");
  private static final Name GENERATION = new Name("generation");
  private static final Name LABELS = new Name("labels");
  private static final Name ANNOTATIONS = new Name("annotations");
  private static final Name OWNER_REFERENCES = new Name("ownerReferences");
  private static final Name CONTROLLER = new Name("controller");
  private static final Name NODE_NAME = new Name("nodeName");
  private static final Name CONTAINERS = new Name("containers");
  private static final Name INIT_CONTAINERS = new Name("initContainers");
  private static final Name RESOURCES = new Name("resources");
  private static final Name RESTART_POLICY = new Name("restartPolicy");
  private static final Name RESIZE_POLICY = new Name("resizePolicy");
  private static final Name REQUESTS = new Name("requests");
  private static final Name LIMITS = new Name("limits");
  private static final Name RESOURCE_NAME = new Name("resourceName");
  private static final Name PHASE = new Name("phase");
  private static final Name QOS_CLASS = new Name("qosClass");
  private static final Name RESIZE = new Name("resize");
  private static final Name CONDITIONS = new Name("conditions");
  private static final Name TYPE = new Name("type");
  private static final Name REASON = new Name("reason");
  private static final Name ALLOCATABLE = new Name("allocatable");
  private static final Name NODE_INFO = new Name("nodeInfo");
  private static final Name OPERATING_SYSTEM = new Name("operatingSystem");

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
      if (j.nameIs(METADATA)) {
        pod.setMetadata(meta(j));
      } else if (j.nameIs(SPEC)) {
        pod.setSpec(podSpec(j));
      } else if (j.nameIs(STATUS)) {
        pod.setStatus(podStatus(j));
      } else if (j.nameIs(API_VERSION) || j.nameIs(KIND)) {
        throw REFUSED; // a duplicate: the full path takes the last one
      } else {
        j.skipValue();
      }
    }
    return pod;
  }

  /** The node at the cursor's next field (after {@code apiVersion} and {@code kind}). */
  Node node(JsonBytes j) {
    Node node = new Node();
    while (j.field()) {
      if (j.nameIs(METADATA)) {
        node.setMetadata(meta(j));
      } else if (j.nameIs(STATUS)) {
        node.setStatus(nodeStatus(j));
      } else if (j.nameIs(API_VERSION) || j.nameIs(KIND)) {
        throw REFUSED;
      } else {
        j.skipValue();
      }
    }
    return node;
  }

  private ObjectMeta meta(JsonBytes j) {
    j.startObject();
    ObjectMeta meta = new ObjectMeta();
    while (j.field()) {
      if (j.nameIs(NAME)) {
        meta.setName(j.string());
      } else if (j.nameIs(NAMESPACE)) {
        meta.setNamespace(j.string(vocabulary));
      } else if (j.nameIs(UID)) {
        meta.setUid(j.string());
      } else if (j.nameIs(RESOURCE_VERSION)) {
        meta.setResourceVersion(j.string());
      } else if (j.nameIs(GENERATION)) {
        meta.setGeneration(j.integer());
      } else if (j.nameIs(LABELS)) {
        meta.setLabels(strings(j));
      } else if (j.nameIs(ANNOTATIONS)) {
        meta.setAnnotations(strings(j));
      } else if (j.nameIs(OWNER_REFERENCES)) {
        meta.setOwnerReferences(owners(j));
      } else {
        j.skipValue();
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
        if (j.nameIs(KIND)) {
          ref.setKind(j.string(vocabulary));
        } else if (j.nameIs(NAME)) {
          ref.setName(j.string());
        } else if (j.nameIs(UID)) {
          ref.setUid(j.string());
        } else if (j.nameIs(CONTROLLER)) {
          ref.setController(j.bool());
        } else {
          j.skipValue();
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
      if (j.nameIs(NODE_NAME)) {
        spec.setNodeName(j.string(vocabulary));
      } else if (j.nameIs(CONTAINERS)) {
        spec.setContainers(containers(j));
      } else if (j.nameIs(INIT_CONTAINERS)) {
        spec.setInitContainers(containers(j));
      } else if (j.nameIs(RESOURCES)) {
        spec.setResources(resources(j));
      } else {
        j.skipValue();
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
        if (j.nameIs(NAME)) {
          c.setName(j.string(vocabulary));
        } else if (j.nameIs(RESTART_POLICY)) {
          c.setRestartPolicy(j.string(vocabulary));
        } else if (j.nameIs(RESOURCES)) {
          c.setResources(resources(j));
        } else if (j.nameIs(RESIZE_POLICY)) {
          c.setResizePolicy(resizePolicy(j));
        } else {
          j.skipValue();
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
      if (j.nameIs(REQUESTS)) {
        r.setRequests(quantities(j));
      } else if (j.nameIs(LIMITS)) {
        r.setLimits(quantities(j));
      } else {
        j.skipValue();
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
        if (j.nameIs(RESOURCE_NAME)) {
          policy.setResourceName(j.string(vocabulary));
        } else if (j.nameIs(RESTART_POLICY)) {
          policy.setRestartPolicy(j.string(vocabulary));
        } else {
          j.skipValue();
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
      if (j.nameIs(PHASE)) {
        status.setPhase(j.string(vocabulary));
      } else if (j.nameIs(QOS_CLASS)) {
        status.setQosClass(j.string(vocabulary));
      } else if (j.nameIs(RESIZE)) {
        status.setResize(j.string(vocabulary));
      } else if (j.nameIs(CONDITIONS)) {
        status.setConditions(conditions(j));
      } else {
        j.skipValue();
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
        if (j.nameIs(TYPE)) {
          c.setType(j.string(vocabulary));
        } else if (j.nameIs(STATUS)) {
          c.setStatus(j.string(vocabulary));
        } else if (j.nameIs(REASON)) {
          c.setReason(j.string(vocabulary));
        } else {
          j.skipValue();
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
      if (j.nameIs(ALLOCATABLE)) {
        status.setAllocatable(quantities(j));
      } else if (j.nameIs(NODE_INFO)) {
        status.setNodeInfo(nodeInfo(j));
      } else {
        j.skipValue();
      }
    }
    return status;
  }

  private NodeSystemInfo nodeInfo(JsonBytes j) {
    j.startObject();
    NodeSystemInfo info = new NodeSystemInfo();
    while (j.field()) {
      if (j.nameIs(OPERATING_SYSTEM)) {
        info.setOperatingSystem(j.string(vocabulary));
      } else {
        j.skipValue();
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
