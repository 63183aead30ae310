package dev.kubeheadroom.kubedouble;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kubeheadroom.kubedouble.KubeletRules.ResizeProgram;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
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
 *       and, before v1.36, for requests above the Node's {@code status.allocatable.cpu} (Deferred
 *       since); Deferred when changed requests do not fit beside the node's other pods).
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
 * <p>It behaves as a kubelet of the double's {@link ApiServerDouble#version() version}: requests
 * above allocatable are Infeasible before v1.36, Deferred since ({@link ResizeAdmission}). Its
 * Events ({@link KubeletEvents}: {@code ResizeStarted}, {@code ResizeCompleted}, Warning
 * {@code ResizeDeferred} / {@code ResizeInfeasible} / {@code ResizeError}) are written as core
 * {@code v1} Events from component {@code kubelet} through the seed client, so they stay out of the
 * request journal too.
 *
 * <p>Not modelled: container runtimes, restarts, probes, memory capacity, pod-level resources.
 */
public final class KubeletDouble implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(KubeletDouble.class);

  /** How the kubelet of a node answers a resize. */
  public enum ResizeAnswer { APPLY, DEFERRED, INFEASIBLE, IN_PROGRESS, ACTUATION_ERROR }

  private final ApiServerDouble api;
  private final ApiServerDispatcher store;
  private final KubeletRules.NodeView view;
  private final Clock clock;
  private final KubeletWork work = new KubeletWork("kube-double-kubelet");
  private volatile boolean closed;

  private KubeletDouble(ApiServerDouble api, Clock clock) {
    this.api = api;
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
    store.onPodChange(change -> {
      if (closed) {
        return;
      }
      if (!change.type().equals("DELETED")) {
        submit(change.namespace(), change.name());
      } else {
        work.deleted(change.namespace() + "/" + change.name())
            .forEach(key -> submit(key.split("/", 2)[0], key.split("/", 2)[1])); // room freed: retry
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
    work.program(node, new ResizeProgram(answer, message == null ? "" : message));
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
   * actuated (default {@link KubeletWork#DEFAULT_ACTUATION_DELAY}; zero actuates in the same status write).
   */
  public void actuationDelay(Duration delay) {
    work.actuationDelay(delay);
  }

  /** How many status writes the kubelet has made (for tests that wait for it to settle). */
  public long statusWrites() {
    return work.statusWrites();
  }

  private void submit(String namespace, String name) {
    if (!work.execute(() -> reconcile(namespace, name))) {
      LOG.debug("kubelet double closed; ignoring Pod({}/{})", namespace, name);
    }
  }

  private void reconcile(String namespace, String name) {
    try {
      List<KubeletRules.Effect> effects = new ArrayList<>(1);
      if (store.updatePod(namespace, name, pod -> desired(pod, effects))) {
        work.statusWritten();
      }
      // after the store's write lock is released: the Events go through the seed client
      effects.stream().filter(e -> !e.events().isEmpty()).forEach(e -> store.pod(namespace, name).ifPresent(pod ->
          KubeletEvents.write(api.seedClient(), pod, pod.path("spec").path("nodeName").asText(), e.events(),
              clock.instant())));
    } catch (RuntimeException e) {
      LOG.warn("kubelet double failed on Pod({}/{})", namespace, name, e);
    }
  }

  /** The pod as this kubelet would leave it (the same object if there is nothing to do); its effect into {@code effects}. */
  private ObjectNode desired(ObjectNode pod, List<KubeletRules.Effect> effects) {
    String node = pod.path("spec").path("nodeName").asText("");
    String uid = pod.path("metadata").path("uid").asText();
    String namespace = pod.path("metadata").path("namespace").asText();
    String name = pod.path("metadata").path("name").asText();
    KubeletRules.Effect effect = work.reconcile(pod, view, node, uid, namespace + "/" + name, api.version(),
        clock.instant().toString());
    effects.add(effect);
    if (effect.actuateLater()) {
      work.actuateLater(uid, () -> reconcile(namespace, name));
    }
    return pod;
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
    work.close();
  }
}
