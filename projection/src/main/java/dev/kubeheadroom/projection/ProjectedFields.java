package dev.kubeheadroom.projection;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
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
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Binds a Pod or a Node from a watch line's tokens into fabric8 objects that carry only the
 * fields {@link PodProjection}, {@link NodeProjection} and {@code simulate}'s model read
 * (identity, labels, annotations, owners, node name, containers' names, restart policies,
 * resources and resize policies, the pod-level resources, phase, QoS class, resize conditions;
 * a node's allocatable and OS); every other field is skipped unread. For {@code simulate}: Jackson's
 * data binding into the whole fabric8 model was most of a replay's reading.
 *
 * <p>Only the plain shapes the API server writes are bound here: a string where a string belongs,
 * an integer generation, a boolean {@code controller}, no nulls. Anything else throws {@link
 * Unsupported} and the caller reads the line the full way, so whatever this class binds projects
 * exactly as the full binding would (a property test holds it to that on every object of the
 * trace and the scenarios). A field this class skips is not looked at: a line whose skipped fields
 * have a shape fabric8 would refuse (a string where a list belongs, which the API server never
 * stores) is read here, where the full path counts it malformed.
 */
final class ProjectedFields {
  /** A shape this binder leaves to the full binding. Thrown often enough to skip the stack trace. */
  static final class Unsupported extends IOException {
    private Unsupported() {
      super("shape left to the full binding", null);
    }

    @Override
    public synchronized Throwable fillInStackTrace() {
      return this;
    }
  }

  static final Unsupported UNSUPPORTED = new Unsupported();

  private ProjectedFields() {}

  /** The pod at the parser's current field (after {@code apiVersion} and {@code kind}). */
  static Pod pod(JsonParser p) throws IOException {
    Pod pod = new Pod();
    while (field(p)) {
      switch (p.currentName()) {
        case "metadata" -> pod.setMetadata(meta(p));
        case "spec" -> pod.setSpec(podSpec(p));
        case "status" -> pod.setStatus(podStatus(p));
        case "apiVersion", "kind" -> throw UNSUPPORTED; // a duplicate: the full path takes the last one
        default -> p.skipChildren();
      }
    }
    return pod;
  }

  /** The node at the parser's current field (after {@code apiVersion} and {@code kind}). */
  static Node node(JsonParser p) throws IOException {
    Node node = new Node();
    while (field(p)) {
      switch (p.currentName()) {
        case "metadata" -> node.setMetadata(meta(p));
        case "status" -> node.setStatus(nodeStatus(p));
        case "apiVersion", "kind" -> throw UNSUPPORTED;
        default -> p.skipChildren();
      }
    }
    return node;
  }

  private static ObjectMeta meta(JsonParser p) throws IOException {
    startObject(p);
    ObjectMeta meta = new ObjectMeta();
    while (field(p)) {
      switch (p.currentName()) {
        case "name" -> meta.setName(string(p));
        case "namespace" -> meta.setNamespace(string(p));
        case "uid" -> meta.setUid(string(p));
        case "resourceVersion" -> meta.setResourceVersion(string(p));
        case "generation" -> meta.setGeneration(integer(p));
        case "labels" -> meta.setLabels(strings(p));
        case "annotations" -> meta.setAnnotations(strings(p));
        case "ownerReferences" -> meta.setOwnerReferences(owners(p));
        default -> p.skipChildren();
      }
    }
    return meta;
  }

  private static List<OwnerReference> owners(JsonParser p) throws IOException {
    startArray(p);
    List<OwnerReference> owners = new ArrayList<>(1);
    while (element(p)) {
      startObject(p);
      OwnerReference ref = new OwnerReference();
      while (field(p)) {
        switch (p.currentName()) {
          case "kind" -> ref.setKind(string(p));
          case "name" -> ref.setName(string(p));
          case "uid" -> ref.setUid(string(p));
          case "controller" -> ref.setController(bool(p));
          default -> p.skipChildren();
        }
      }
      owners.add(ref);
    }
    return owners;
  }

  private static PodSpec podSpec(JsonParser p) throws IOException {
    startObject(p);
    PodSpec spec = new PodSpec();
    while (field(p)) {
      switch (p.currentName()) {
        case "nodeName" -> spec.setNodeName(string(p));
        case "containers" -> spec.setContainers(containers(p));
        case "initContainers" -> spec.setInitContainers(containers(p));
        case "resources" -> spec.setResources(resources(p));
        default -> p.skipChildren();
      }
    }
    return spec;
  }

  private static List<Container> containers(JsonParser p) throws IOException {
    startArray(p);
    List<Container> containers = new ArrayList<>(2);
    while (element(p)) {
      startObject(p);
      Container c = new Container();
      while (field(p)) {
        switch (p.currentName()) {
          case "name" -> c.setName(string(p));
          case "restartPolicy" -> c.setRestartPolicy(string(p));
          case "resources" -> c.setResources(resources(p));
          case "resizePolicy" -> c.setResizePolicy(resizePolicy(p));
          default -> p.skipChildren();
        }
      }
      containers.add(c);
    }
    return containers;
  }

  private static ResourceRequirements resources(JsonParser p) throws IOException {
    startObject(p);
    ResourceRequirements r = new ResourceRequirements();
    while (field(p)) {
      switch (p.currentName()) {
        case "requests" -> r.setRequests(quantities(p));
        case "limits" -> r.setLimits(quantities(p));
        default -> p.skipChildren();
      }
    }
    return r;
  }

  private static List<ContainerResizePolicy> resizePolicy(JsonParser p) throws IOException {
    startArray(p);
    List<ContainerResizePolicy> out = new ArrayList<>(2);
    while (element(p)) {
      startObject(p);
      ContainerResizePolicy policy = new ContainerResizePolicy();
      while (field(p)) {
        switch (p.currentName()) {
          case "resourceName" -> policy.setResourceName(string(p));
          case "restartPolicy" -> policy.setRestartPolicy(string(p));
          default -> p.skipChildren();
        }
      }
      out.add(policy);
    }
    return out;
  }

  private static PodStatus podStatus(JsonParser p) throws IOException {
    startObject(p);
    PodStatus status = new PodStatus();
    while (field(p)) {
      switch (p.currentName()) {
        case "phase" -> status.setPhase(string(p));
        case "qosClass" -> status.setQosClass(string(p));
        case "resize" -> status.setResize(string(p));
        case "conditions" -> status.setConditions(conditions(p));
        default -> p.skipChildren();
      }
    }
    return status;
  }

  private static List<PodCondition> conditions(JsonParser p) throws IOException {
    startArray(p);
    List<PodCondition> out = new ArrayList<>(2);
    while (element(p)) {
      startObject(p);
      PodCondition c = new PodCondition();
      while (field(p)) {
        switch (p.currentName()) {
          case "type" -> c.setType(string(p));
          case "status" -> c.setStatus(string(p));
          case "reason" -> c.setReason(string(p));
          default -> p.skipChildren();
        }
      }
      out.add(c);
    }
    return out;
  }

  private static NodeStatus nodeStatus(JsonParser p) throws IOException {
    startObject(p);
    NodeStatus status = new NodeStatus();
    while (field(p)) {
      switch (p.currentName()) {
        case "allocatable" -> status.setAllocatable(quantities(p));
        case "nodeInfo" -> status.setNodeInfo(nodeInfo(p));
        default -> p.skipChildren();
      }
    }
    return status;
  }

  private static NodeSystemInfo nodeInfo(JsonParser p) throws IOException {
    startObject(p);
    NodeSystemInfo info = new NodeSystemInfo();
    while (field(p)) {
      if (p.currentName().equals("operatingSystem")) {
        info.setOperatingSystem(string(p));
      } else {
        p.skipChildren();
      }
    }
    return info;
  }

  // ---- scalars and collections: the plain shapes only

  /** Moves to the next field's value; false at the end of the object. */
  private static boolean field(JsonParser p) throws IOException {
    if (p.nextToken() != JsonToken.FIELD_NAME) {
      return false;
    }
    p.nextToken();
    return true;
  }

  /** Moves to the next element; false at the end of the array. */
  private static boolean element(JsonParser p) throws IOException {
    return p.nextToken() != JsonToken.END_ARRAY;
  }

  private static void startObject(JsonParser p) throws IOException {
    if (p.currentToken() != JsonToken.START_OBJECT) {
      throw UNSUPPORTED;
    }
  }

  private static void startArray(JsonParser p) throws IOException {
    if (p.currentToken() != JsonToken.START_ARRAY) {
      throw UNSUPPORTED;
    }
  }

  private static String string(JsonParser p) throws IOException {
    if (p.currentToken() != JsonToken.VALUE_STRING) {
      throw UNSUPPORTED;
    }
    return p.getText();
  }

  private static Long integer(JsonParser p) throws IOException {
    if (p.currentToken() != JsonToken.VALUE_NUMBER_INT || p.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
      throw UNSUPPORTED;
    }
    return p.getLongValue();
  }

  private static Boolean bool(JsonParser p) throws IOException {
    return switch (p.currentToken()) {
      case VALUE_TRUE -> Boolean.TRUE;
      case VALUE_FALSE -> Boolean.FALSE;
      default -> throw UNSUPPORTED;
    };
  }

  private static Map<String, String> strings(JsonParser p) throws IOException {
    startObject(p);
    Map<String, String> out = new LinkedHashMap<>();
    while (field(p)) {
      String key = p.currentName();
      out.put(key, string(p));
    }
    return out;
  }

  /** A quantity map as fabric8's {@code Quantity} deserializer builds it from strings. */
  private static Map<String, Quantity> quantities(JsonParser p) throws IOException {
    startObject(p);
    Map<String, Quantity> out = new LinkedHashMap<>();
    while (field(p)) {
      String key = p.currentName();
      try {
        out.put(key, new Quantity(string(p)));
      } catch (RuntimeException e) {
        throw UNSUPPORTED; // the full path reports it as the line's reason
      }
    }
    return out;
  }
}
