package dev.kubeheadroom.kubedouble;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kubeheadroom.kubedouble.ResizeAdmission.Decision;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A simulated kubelet for every node at once. It reacts to pod changes in the
 * {@link ApiServerDouble} (asynchronously, on its own thread, as a separate actor would) and
 * writes pod status directly into the store (no HTTP request, so the request journal only holds
 * the traffic of the code under test):
 *
 * <ul>
 *   <li>a pod bound to a node ({@code spec.nodeName} set) and still Pending becomes Running, with
 *       a ready {@code containerStatuses[]} entry per container whose {@code resources} are the
 *       spec's and whose {@code allocatedResources} are its requests;
 *   <li>after a resize (spec resources differ from the status, or {@code metadata.generation} is
 *       ahead of {@code status.observedGeneration}) it decides as a kubelet does
 *       ({@link ResizeAdmission}: Infeasible for Windows and static pods, for a Guaranteed pod's
 *       cpu change on a node labelled {@value ResizeAdmission#CPU_MANAGER_POLICY}{@code : static},
 *       and for requests above the Node's {@code status.allocatable.cpu}; Deferred when changed
 *       requests do not fit beside the node's other pods — never for a change of limits alone).
 *       An admitted resize is allocated ({@code allocatedResources}), shows
 *       {@code PodResizeInProgress} for {@link #actuationDelay(Duration)}, then is actuated:
 *       {@code status.containerStatuses[].resources} take the spec's and the resize conditions
 *       clear. In every case {@code status.observedGeneration} becomes the pod's generation.
 *   <li>a test may program a node ({@link #answerResizes}): {@code DEFERRED} defers resizes that
 *       change requests, {@code INFEASIBLE} refuses every resize, {@code IN_PROGRESS} allocates
 *       and never actuates, {@code ACTUATION_ERROR} leaves {@code PodResizeInProgress} with
 *       reason {@code Error}.
 * </ul>
 *
 * <p>Not modelled: container runtimes, restarts, probes, memory capacity, pod-level resources,
 * events.
 */
public final class KubeletDouble implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(KubeletDouble.class);

  /** How the kubelet of a node answers a resize. */
  public enum ResizeAnswer { APPLY, DEFERRED, INFEASIBLE, IN_PROGRESS, ACTUATION_ERROR }

  /** How long an admitted resize shows {@code PodResizeInProgress} before it is actuated. */
  public static final Duration DEFAULT_ACTUATION_DELAY = Duration.ofMillis(20);

  private record Program(ResizeAnswer answer, String message) {}

  private static final Program APPLY = new Program(ResizeAnswer.APPLY, "");

  private final ApiServerDispatcher store;
  private final Clock clock;
  private final ScheduledExecutorService worker;
  private final Map<String, Program> programs = new ConcurrentHashMap<>();
  private final Set<String> actuating = ConcurrentHashMap.newKeySet();
  private final Set<String> deferred = ConcurrentHashMap.newKeySet();
  private final AtomicLong statusWrites = new AtomicLong();
  private volatile Duration actuationDelay = DEFAULT_ACTUATION_DELAY;
  private volatile boolean closed;

  private KubeletDouble(ApiServerDouble api, Clock clock) {
    this.store = api.dispatcher();
    this.clock = clock;
    this.worker = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread thread = new Thread(r, "kube-double-kubelet");
      thread.setDaemon(true);
      return thread;
    });
    store.onPodChange(change -> {
      if (closed) {
        return;
      }
      if (!change.type().equals("DELETED")) {
        submit(change.namespace(), change.name());
      } else {
        deferred.remove(change.namespace() + "/" + change.name());
        deferred.forEach(key -> submit(key.split("/", 2)[0], key.split("/", 2)[1])); // room freed: retry
      }
    });
    store.pods().forEach(pod -> submit(pod.path("metadata").path("namespace").asText(),
        pod.path("metadata").path("name").asText()));
  }

  /** Starts a kubelet for every node of {@code api}; condition times come from the system clock. */
  public static KubeletDouble start(ApiServerDouble api) {
    return new KubeletDouble(api, Clock.systemUTC());
  }

  public static KubeletDouble start(ApiServerDouble api, Clock clock) {
    return new KubeletDouble(api, clock);
  }

  /**
   * From now on, answer resizes of pods on {@code node} this way (message: the condition's
   * message; real kubelets say e.g. "Node didn't have enough capacity: cpu, requested: 5000,
   * capacity: 4000"). Pods on the node are re-examined at once, so switching a node back to
   * {@code APPLY} applies the resizes it held, as a kubelet retrying a deferred resize would.
   * {@code DEFERRED} holds only resizes that change requests: a kubelet admits requests against
   * allocatable, so a change of limits alone is applied.
   */
  public void answerResizes(String node, ResizeAnswer answer, String message) {
    Objects.requireNonNull(answer, "answer");
    programs.put(node, new Program(answer, message == null ? "" : message));
    store.pods().stream()
        .filter(pod -> node.equals(pod.path("spec").path("nodeName").asText()))
        .forEach(pod -> submit(pod.path("metadata").path("namespace").asText(),
            pod.path("metadata").path("name").asText()));
  }

  public void answerResizes(String node, ResizeAnswer answer) {
    answerResizes(node, answer, defaultMessage(answer));
  }

  /**
   * From now on, an admitted resize shows {@code PodResizeInProgress} this long before it is
   * actuated (default {@link #DEFAULT_ACTUATION_DELAY}; zero actuates in the same status write).
   */
  public void actuationDelay(Duration delay) {
    if (delay.isNegative()) {
      throw new IllegalArgumentException("delay must not be negative: " + delay);
    }
    this.actuationDelay = delay;
  }

  /** How many status writes the kubelet has made (for tests that wait for it to settle). */
  public long statusWrites() {
    return statusWrites.get();
  }

  private void submit(String namespace, String name) {
    try {
      worker.execute(() -> reconcile(namespace, name));
    } catch (java.util.concurrent.RejectedExecutionException closing) {
      LOG.debug("kubelet double closed; ignoring Pod({}/{})", namespace, name);
    }
  }

  private void reconcile(String namespace, String name) {
    try {
      if (store.updatePod(namespace, name, this::desired)) {
        statusWrites.incrementAndGet();
      }
    } catch (RuntimeException e) {
      LOG.warn("kubelet double failed on Pod({}/{})", namespace, name, e);
    }
  }

  /** The pod as this kubelet would leave it (the same object if there is nothing to do). */
  private ObjectNode desired(ObjectNode pod) {
    String node = pod.path("spec").path("nodeName").asText("");
    ObjectNode status = pod.path("status") instanceof ObjectNode s ? s : pod.putObject("status");
    String phase = status.path("phase").asText("Pending");
    if (node.isEmpty() || phase.equals("Succeeded") || phase.equals("Failed")
        || pod.path("metadata").has("deletionTimestamp")) {
      return pod;
    }
    long generation = pod.path("metadata").path("generation").asLong(1);
    String now = clock.instant().toString();
    if (phase.equals("Pending")) {
      start(pod, status, now);
      status.put("observedGeneration", generation);
      return pod;
    }
    String uid = pod.path("metadata").path("uid").asText();
    if (!resizeOutstanding(pod, status, generation) || actuating.contains(uid)) {
      return pod;
    }
    if (!resourcesDiffer(pod, status)) { // desired == actuated: nothing to admit, the generation is seen
      removeCondition(status, "PodResizePending");
      removeCondition(status, "PodResizeInProgress");
      status.put("observedGeneration", generation);
      return pod;
    }
    Program program = programs.getOrDefault(node, APPLY);
    Decision decision = ResizeAdmission.decide(pod, program.answer(), program.message(),
        store.object("/api/v1/nodes/" + node).map(JsonNode.class::cast), // by name: not every node read per resize
        () -> store.pods().stream().filter(p -> node.equals(p.path("spec").path("nodeName").asText()))
            .map(JsonNode.class::cast).toList());
    String key = pod.path("metadata").path("namespace").asText() + "/" + pod.path("metadata").path("name").asText();
    if (decision instanceof Decision.Pending p && p.reason().equals("Deferred")) {
      deferred.add(key);
    } else {
      deferred.remove(key);
    }
    if (decision instanceof Decision.Pending pending) {
      removeCondition(status, "PodResizeInProgress");
      setCondition(status, "PodResizePending", pending.reason(), pending.message(), generation, now);
    } else if (decision instanceof Decision.Hold hold) {
      removeCondition(status, "PodResizePending");
      copyResources(pod, status, false);
      setCondition(status, "PodResizeInProgress", hold.reason(), hold.message(), generation, now);
    } else {
      removeCondition(status, "PodResizePending");
      if (actuationDelay.isZero() || inProgressSince(status, generation)) {
        copyResources(pod, status, true);
        removeCondition(status, "PodResizeInProgress");
      } else {
        copyResources(pod, status, false);
        setCondition(status, "PodResizeInProgress", "", "", generation, now);
        actuateLater(uid, pod.path("metadata").path("namespace").asText(), pod.path("metadata").path("name").asText());
      }
    }
    status.put("observedGeneration", generation);
    return pod;
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

  private void actuateLater(String uid, String namespace, String name) {
    actuating.add(uid);
    try {
      worker.schedule(() -> {
        actuating.remove(uid);
        reconcile(namespace, name);
      }, actuationDelay.toNanos(), TimeUnit.NANOSECONDS);
    } catch (java.util.concurrent.RejectedExecutionException closing) {
      actuating.remove(uid);
    }
  }

  private static boolean resizeOutstanding(ObjectNode pod, ObjectNode status, long generation) {
    return status.path("observedGeneration").asLong(0) < generation || resourcesDiffer(pod, status);
  }

  /** Whether a container this kubelet runs (one with a status entry) runs other resources than desired. */
  private static boolean resourcesDiffer(ObjectNode pod, ObjectNode status) {
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
    return com.fasterxml.jackson.databind.node.MissingNode.getInstance();
  }

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

  private static String defaultMessage(ResizeAnswer answer) {
    return switch (answer) {
      case APPLY, IN_PROGRESS -> "";
      case ACTUATION_ERROR -> "failed to update container resources (programmed by kube-double)";
      case DEFERRED -> "Node didn't have enough resource: cpu (programmed by kube-double)";
      case INFEASIBLE -> "Node didn't have enough capacity: cpu (programmed by kube-double)";
    };
  }

  @Override
  public void close() {
    closed = true;
    worker.shutdownNow();
    try {
      worker.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
