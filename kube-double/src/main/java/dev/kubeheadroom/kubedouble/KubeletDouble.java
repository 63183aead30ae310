package dev.kubeheadroom.kubedouble;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kubeheadroom.kubedouble.KubeletRules.ResizeProgram;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
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

  private final ApiServerDispatcher store;
  private final KubeletRules.NodeView view;
  private final Clock clock;
  private final ScheduledExecutorService worker;
  private final Map<String, ResizeProgram> programs = new ConcurrentHashMap<>();
  private final Set<String> actuating = ConcurrentHashMap.newKeySet();
  private final Set<String> deferred = ConcurrentHashMap.newKeySet();
  private final AtomicLong statusWrites = new AtomicLong();
  private volatile Duration actuationDelay = DEFAULT_ACTUATION_DELAY;
  private volatile boolean closed;

  private KubeletDouble(ApiServerDouble api, Clock clock) {
    this.store = api.dispatcher();
    this.view = new KubeletRules.NodeView() {
      @Override
      public Optional<JsonNode> node(String name) { // by name: not every node read per resize
        return store.object("/api/v1/nodes/" + name).map(JsonNode.class::cast);
      }

      @Override
      public List<JsonNode> podsOn(String name) {
        return store.pods().stream().filter(p -> name.equals(p.path("spec").path("nodeName").asText()))
            .map(JsonNode.class::cast).toList();
      }
    };
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
    programs.put(node, new ResizeProgram(answer, message == null ? "" : message));
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
    String uid = pod.path("metadata").path("uid").asText();
    KubeletRules.Effect effect = KubeletRules.reconcile(pod, view,
        programs.getOrDefault(node, ResizeProgram.APPLY), actuating.contains(uid),
        actuationDelay.isZero(), clock.instant().toString());
    String namespace = pod.path("metadata").path("namespace").asText();
    String name = pod.path("metadata").path("name").asText();
    effect.recordDeferral(deferred, namespace + "/" + name);
    if (effect.actuateLater()) {
      actuateLater(uid, namespace, name);
    }
    return pod;
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
