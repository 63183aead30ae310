package dev.kubeheadroom.kubedouble;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kubeheadroom.kubedouble.KubeletDouble.ResizeAnswer;
import dev.kubeheadroom.kubedouble.KubeletEvents.KubeletEvent;
import dev.kubeheadroom.kubedouble.ResizeAdmission.Decision;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * What a kubelet does to a pod's status, as a pure function of the pod, its node and the node's
 * other pods: start a bound pod (Running, ready container statuses), and admit, defer, refuse or
 * actuate a resize ({@link ResizeAdmission}) with the {@code PodResizePending} /
 * {@code PodResizeInProgress} conditions and {@code status.observedGeneration}. One set of rules
 * with two front ends: {@link KubeletDouble} writes the result into the double's store, the
 * node agent of module {@code kube-real} writes it to a real kube-apiserver through
 * {@code pods/status}.
 */
public final class KubeletRules {

  /** The node as the kubelet sees it. */
  public interface NodeView {
    /** The Node object, if registered. */
    Optional<JsonNode> node(String name);

    /** The pods bound to the node (read only when a resize changes requests). */
    List<JsonNode> podsOn(String name);
  }

  /** How a node's kubelet answers resizes (tests program it; real kubelets decide). */
  public record ResizeProgram(ResizeAnswer answer, String message) {
    public static final ResizeProgram APPLY = new ResizeProgram(ResizeAnswer.APPLY, "");
  }

  /**
   * What the front end does beside writing the pod.
   *
   * @param deferred whether a resize decision was made and deferred ({@code null}: none made),
   *     so the front end retries it when the node frees room
   * @param actuateLater the resize was admitted and shows {@code PodResizeInProgress}: reconcile
   *     again after the actuation delay to actuate it
   * @param events the Events the kubelet records about the pod ({@link KubeletEvents#write})
   */
  public record Effect(Boolean deferred, boolean actuateLater, List<KubeletEvent> events) {
    public static final Effect NONE = new Effect(null, false, List.of());

    /** Keeps {@code deferredKeys} the pods whose last resize decision was Deferred. */
    public void recordDeferral(Set<String> deferredKeys, String key) {
      if (Boolean.TRUE.equals(deferred)) {
        deferredKeys.add(key);
      } else if (Boolean.FALSE.equals(deferred)) {
        deferredKeys.remove(key);
      }
    }
  }

  private KubeletRules() {}

  /**
   * Leaves {@code pod} (in place) as the kubelet of its node would, at {@code now}.
   *
   * @param version the release the kubelet is: the server's (a kubelet is no newer than its
   *     server), which decides requests above allocatable ({@link ResizeAdmission}) and the Events
   * @param program how the node's kubelet was told to answer resizes ({@link ResizeProgram#APPLY}
   *     unless a test programmed it)
   * @param actuating this pod's admitted resize is waiting out the actuation delay: leave it
   * @param actuateNow actuate an admitted resize in the same write (a zero actuation delay)
   * @return what the caller has to do beside writing the pod
   */
  public static Effect reconcile(ObjectNode pod, NodeView view, ResizeProgram program,
      boolean actuating, boolean actuateNow, ServerVersion version, String now) {
    String node = pod.path("spec").path("nodeName").asText("");
    ObjectNode status = pod.path("status") instanceof ObjectNode s ? s : pod.putObject("status");
    String phase = status.path("phase").asText("Pending");
    if (node.isEmpty() || phase.equals("Succeeded") || phase.equals("Failed")
        || pod.path("metadata").has("deletionTimestamp")) {
      return Effect.NONE;
    }
    long generation = pod.path("metadata").path("generation").asLong(1);
    if (phase.equals("Pending")) {
      start(pod, status, now);
      status.put("observedGeneration", generation);
      return Effect.NONE;
    }
    if (!resizeOutstanding(pod, status, generation) || actuating) {
      return Effect.NONE;
    }
    if (!resourcesDiffer(pod, status)) { // desired == actuated: nothing to admit, the generation is seen
      removeCondition(status, "PodResizePending");
      removeCondition(status, "PodResizeInProgress");
      status.put("observedGeneration", generation);
      return Effect.NONE;
    }
    Decision decision = ResizeAdmission.decide(pod, program.answer(), program.message(),
        view.node(node), () -> view.podsOn(node), version);
    boolean deferred = decision instanceof Decision.Pending p && p.reason().equals("Deferred");
    boolean actuateLater = false;
    List<KubeletEvent> events = List.of();
    if (decision instanceof Decision.Pending pending) {
      removeCondition(status, "PodResizeInProgress");
      JsonNode before = condition(status, "PodResizePending");
      setCondition(status, "PodResizePending", pending.reason(), pending.message(), generation, now);
      if (!pending.reason().equals(before.path("reason").asText())
          || before.path("observedGeneration").asLong(-1) != generation) { // SetPodResizePendingCondition's "changed"
        events = KubeletEvents.pending(pod, generation, pending.reason(), pending.message(), version);
      }
    } else if (decision instanceof Decision.Hold hold) {
      removeCondition(status, "PodResizePending");
      copyResources(pod, status, false);
      JsonNode before = condition(status, "PodResizeInProgress");
      setCondition(status, "PodResizeInProgress", hold.reason(), hold.message(), generation, now);
      if (before.isMissingNode()) {
        events = KubeletEvents.started(pod, generation, version);
      }
      if (!hold.reason().isEmpty() && (!hold.reason().equals(before.path("reason").asText())
          || !hold.message().equals(before.path("message").asText()))) {
        events = concat(events, KubeletEvents.error(pod, generation, hold.message(), version));
      }
    } else {
      removeCondition(status, "PodResizePending");
      boolean started = inProgressSince(status, generation);
      if (!started) {
        events = KubeletEvents.started(pod, generation, version);
      }
      if (actuateNow || started) {
        copyResources(pod, status, true);
        removeCondition(status, "PodResizeInProgress");
        events = concat(events, KubeletEvents.completed(pod, generation, version));
      } else {
        copyResources(pod, status, false);
        setCondition(status, "PodResizeInProgress", "", "", generation, now);
        actuateLater = true;
      }
    }
    status.put("observedGeneration", generation);
    return new Effect(deferred ? Boolean.TRUE : Boolean.FALSE, actuateLater, events);
  }

  private static List<KubeletEvent> concat(List<KubeletEvent> first, List<KubeletEvent> then) {
    return Stream.concat(first.stream(), then.stream()).toList();
  }

  /** The kubelet started actuating this generation's resize (a reasonless InProgress for it). */
  private static boolean inProgressSince(ObjectNode status, long generation) {
    for (JsonNode condition : status.path("conditions")) {
      if ("PodResizeInProgress".equals(condition.path("type").asText())) {
        return condition.path("reason").asText("").isEmpty()
            && condition.path("observedGeneration").asLong(-1) == generation;
      }
    }
    return false;
  }

  private static boolean resizeOutstanding(ObjectNode pod, ObjectNode status, long generation) {
    return status.path("observedGeneration").asLong(0) < generation || resourcesDiffer(pod, status);
  }

  /** Whether a container this kubelet runs (one with a status entry) runs other resources than desired. */
  static boolean resourcesDiffer(ObjectNode pod, ObjectNode status) {
    for (JsonNode container : pod.path("spec").path("containers")) {
      JsonNode entry = containerStatus(status, container.path("name").asText());
      if (!entry.isMissingNode() && !sameResources(container.path("resources"), entry.path("resources"))) {
        return true;
      }
    }
    return false;
  }

  private static boolean sameResources(JsonNode spec, JsonNode actual) {
    for (String kind : new String[] {"requests", "limits"}) {
      JsonNode want = spec.path(kind);
      JsonNode have = actual.path(kind);
      if (want.size() != have.size()) {
        return false;
      }
      for (var it = want.fields(); it.hasNext(); ) {
        var q = it.next();
        if (!have.has(q.getKey()) || Quantities.amount(q.getValue().asText())
            .compareTo(Quantities.amount(have.path(q.getKey()).asText())) != 0) {
          return false;
        }
      }
    }
    return true;
  }

  private static void start(ObjectNode pod, ObjectNode status, String now) {
    status.put("phase", "Running");
    status.put("hostIP", "10.0.0.1");
    status.put("podIP", "10.244.0." + (Math.floorMod(pod.path("metadata").path("name").asText().hashCode(), 250) + 2));
    if (!status.has("startTime")) {
      status.put("startTime", now);
    }
    ArrayNode conditions = status.putArray("conditions");
    for (String type : new String[] {"PodReadyToStartContainers", "Initialized", "Ready", "ContainersReady", "PodScheduled"}) {
      conditions.addObject().put("type", type).put("status", "True").put("lastTransitionTime", now);
    }
    ArrayNode statuses = status.putArray("containerStatuses");
    for (JsonNode container : pod.path("spec").path("containers")) {
      String name = container.path("name").asText();
      ObjectNode entry = statuses.addObject();
      entry.put("name", name).put("ready", true).put("started", true).put("restartCount", 0)
          .put("image", container.path("image").asText("")).put("imageID", "")
          .put("containerID", "containerd://kube-double-" + pod.path("metadata").path("uid").asText() + "-" + name);
      entry.putObject("state").putObject("running").put("startedAt", now);
      setResources(entry, container.path("resources"));
    }
  }

  /** Allocates the spec's resources ({@code allocatedResources}) and, if {@code actuate}, runs them. */
  private static void copyResources(ObjectNode pod, ObjectNode status, boolean actuate) {
    for (JsonNode container : pod.path("spec").path("containers")) {
      JsonNode entry = containerStatus(status, container.path("name").asText());
      if (entry instanceof ObjectNode object) {
        if (actuate) {
          setResources(object, container.path("resources"));
        } else if (container.path("resources").path("requests").size() > 0) {
          object.set("allocatedResources", container.path("resources").path("requests").deepCopy());
        }
      }
    }
  }

  private static void setResources(ObjectNode containerStatus, JsonNode specResources) {
    ObjectNode resources = containerStatus.putObject("resources");
    for (String kind : new String[] {"requests", "limits"}) {
      if (specResources.path(kind).size() > 0) {
        resources.set(kind, specResources.path(kind).deepCopy());
      }
    }
    if (specResources.path("requests").size() > 0) {
      containerStatus.set("allocatedResources", specResources.path("requests").deepCopy());
    }
  }

  private static JsonNode containerStatus(JsonNode status, String name) {
    for (JsonNode entry : status.path("containerStatuses")) {
      if (name.equals(entry.path("name").asText())) {
        return entry;
      }
    }
    return MissingNode.getInstance();
  }

  private static JsonNode condition(ObjectNode status, String type) {
    for (JsonNode existing : status.path("conditions")) {
      if (type.equals(existing.path("type").asText())) {
        return existing.deepCopy();
      }
    }
    return MissingNode.getInstance();
  }

  /**
   * Sets a resize condition as the kubelet's status manager does ({@code updatedPodResizeCondition}):
   * {@code lastTransitionTime} moves when the reason changes, {@code lastProbeTime} each time the
   * kubelet tries the resize. The kubelet writes the status only when a condition's reason,
   * message or status changed (its {@code isPodStatusByKubeletEqual} ignores both times), so an
   * unchanged retry leaves the stored probe time: here it moves only when something else does.
   */
  private static void setCondition(ObjectNode status, String type, String reason, String message,
      long generation, String now) {
    ArrayNode conditions = status.path("conditions") instanceof ArrayNode a ? a : status.putArray("conditions");
    ObjectNode condition = null;
    for (JsonNode existing : conditions) {
      if (type.equals(existing.path("type").asText())) {
        condition = (ObjectNode) existing;
      }
    }
    if (condition == null) {
      condition = conditions.addObject().put("type", type).put("status", "True")
          .put("lastTransitionTime", now);
    } else if (!reason.equals(condition.path("reason").asText(""))) {
      condition.put("lastTransitionTime", now);
    }
    if (!condition.has("lastProbeTime") || !reason.equals(condition.path("reason").asText(""))
        || !message.equals(condition.path("message").asText())
        || condition.path("observedGeneration").asLong(-1) != generation) {
      condition.put("lastProbeTime", now);
    }
    condition.put("observedGeneration", generation);
    if (!reason.isEmpty()) {
      condition.put("reason", reason);
    } else {
      condition.remove("reason");
    }
    condition.put("message", message);
  }

  private static void removeCondition(ObjectNode status, String type) {
    if (status.path("conditions") instanceof ArrayNode conditions) {
      for (int i = conditions.size() - 1; i >= 0; i--) {
        if (type.equals(conditions.get(i).path("type").asText())) {
          conditions.remove(i);
        }
      }
    }
  }
}
