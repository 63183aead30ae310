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
import java.util.function.Function;

/**
 * The one table of the fields a watch line's Pod or Node is bound with, read through a {@link
 * FieldCursor} (from a line's bytes or from Jackson's tokens), into fabric8 objects that carry
 * only the fields {@link PodProjection}, {@link NodeProjection} and {@code simulate}'s model read
 * (identity, labels, annotations, owners, node name, containers' names, restart policies,
 * resources and resize policies, the pod-level resources, phase, QoS class, resize conditions;
 * a node's allocatable and OS); every other field is skipped unread. For {@code simulate}:
 * Jackson's data binding into the whole fabric8 model was most of a replay's reading. A field
 * read here is declared once: its name in {@link FieldName}, its line below.
 *
 * <p>Only the plain shapes the API server writes are bound here; anything else is refused
 * ({@link JsonBytes#REFUSED}) and the caller reads the line the full way, so whatever this class
 * binds projects exactly as the full binding would (a property test holds it to that on every
 * object of the trace and the scenarios). A field this class skips is not looked at: a line whose
 * skipped fields have a shape fabric8 would refuse (a string where a list belongs, which the API
 * server never stores) is read here, where the full path counts it malformed.
 */
final class ProjectedFields {
  private ProjectedFields() {}

  /** The pod at the cursor's next field (after {@code apiVersion} and {@code kind}). */
  static Pod pod(FieldCursor j) {
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
  static Node node(FieldCursor j) {
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

  private static ObjectMeta meta(FieldCursor j) {
    j.startObject();
    ObjectMeta meta = new ObjectMeta();
    while (j.field()) {
      switch (j.fieldName()) {
        case NAME -> meta.setName(j.string());
        case NAMESPACE -> meta.setNamespace(j.shared());
        case UID -> meta.setUid(j.string());
        case RESOURCE_VERSION -> meta.setResourceVersion(j.string());
        case GENERATION -> meta.setGeneration(j.integer());
        case LABELS -> meta.setLabels(strings(j));
        case ANNOTATIONS -> meta.setAnnotations(strings(j));
        case OWNER_REFERENCES -> meta.setOwnerReferences(list(j, 1, ProjectedFields::owner));
        default -> j.skipValue();
      }
    }
    return meta;
  }

  private static OwnerReference owner(FieldCursor j) {
    j.startObject();
    OwnerReference ref = new OwnerReference();
    while (j.field()) {
      switch (j.fieldName()) {
        case KIND -> ref.setKind(j.shared());
        case NAME -> ref.setName(j.string());
        case UID -> ref.setUid(j.string());
        case CONTROLLER -> ref.setController(j.bool());
        default -> j.skipValue();
      }
    }
    return ref;
  }

  private static PodSpec podSpec(FieldCursor j) {
    j.startObject();
    PodSpec spec = new PodSpec();
    while (j.field()) {
      switch (j.fieldName()) {
        case NODE_NAME -> spec.setNodeName(j.shared());
        case CONTAINERS -> spec.setContainers(list(j, 2, ProjectedFields::container));
        case INIT_CONTAINERS -> spec.setInitContainers(list(j, 2, ProjectedFields::container));
        case RESOURCES -> spec.setResources(resources(j));
        default -> j.skipValue();
      }
    }
    return spec;
  }

  private static Container container(FieldCursor j) {
    j.startObject();
    Container c = new Container();
    while (j.field()) {
      switch (j.fieldName()) {
        case NAME -> c.setName(j.shared());
        case RESTART_POLICY -> c.setRestartPolicy(j.shared());
        case RESOURCES -> c.setResources(resources(j));
        case RESIZE_POLICY -> c.setResizePolicy(list(j, 2, ProjectedFields::resizePolicy));
        default -> j.skipValue();
      }
    }
    return c;
  }

  private static ResourceRequirements resources(FieldCursor j) {
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

  private static ContainerResizePolicy resizePolicy(FieldCursor j) {
    j.startObject();
    ContainerResizePolicy policy = new ContainerResizePolicy();
    while (j.field()) {
      switch (j.fieldName()) {
        case RESOURCE_NAME -> policy.setResourceName(j.shared());
        case RESTART_POLICY -> policy.setRestartPolicy(j.shared());
        default -> j.skipValue();
      }
    }
    return policy;
  }

  private static PodStatus podStatus(FieldCursor j) {
    j.startObject();
    PodStatus status = new PodStatus();
    while (j.field()) {
      switch (j.fieldName()) {
        case PHASE -> status.setPhase(j.shared());
        case QOS_CLASS -> status.setQosClass(j.shared());
        case RESIZE -> status.setResize(j.shared());
        case CONDITIONS -> status.setConditions(list(j, 2, ProjectedFields::condition));
        default -> j.skipValue();
      }
    }
    return status;
  }

  private static PodCondition condition(FieldCursor j) {
    j.startObject();
    PodCondition c = new PodCondition();
    while (j.field()) {
      switch (j.fieldName()) {
        case TYPE -> c.setType(j.shared());
        case STATUS -> c.setStatus(j.shared());
        case REASON -> c.setReason(j.shared());
        default -> j.skipValue();
      }
    }
    return c;
  }

  private static NodeStatus nodeStatus(FieldCursor j) {
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

  private static NodeSystemInfo nodeInfo(FieldCursor j) {
    j.startObject();
    NodeSystemInfo info = new NodeSystemInfo();
    while (j.field()) {
      switch (j.fieldName()) {
        case OPERATING_SYSTEM -> info.setOperatingSystem(j.shared());
        default -> j.skipValue();
      }
    }
    return info;
  }

  /** An array of objects, each bound by {@code element}. */
  private static <T> List<T> list(FieldCursor j, int capacity, Function<FieldCursor, T> element) {
    j.startArray();
    List<T> out = new ArrayList<>(capacity);
    while (j.element()) {
      out.add(element.apply(j));
    }
    return out;
  }

  private static Map<String, String> strings(FieldCursor j) {
    j.startObject();
    Map<String, String> out = new LinkedHashMap<>(4); // a few labels: a table of 4, not 16
    while (j.field()) {
      String key = j.key();
      out.put(key, j.shared());
    }
    return out;
  }

  /** A quantity map as fabric8's {@code Quantity} deserializer builds it from strings. */
  private static Map<String, Quantity> quantities(FieldCursor j) {
    j.startObject();
    Map<String, Quantity> out = new LinkedHashMap<>(4);
    while (j.field()) {
      String key = j.key();
      out.put(key, j.quantity());
    }
    return out;
  }
}
