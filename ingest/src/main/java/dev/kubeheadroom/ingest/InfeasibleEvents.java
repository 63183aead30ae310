package dev.kubeheadroom.ingest;

import dev.kubeheadroom.ops.PodEvents;
import dev.kubeheadroom.ops.PodEvents.PodEvent;
import dev.kubeheadroom.projection.PodProjection;
import dev.kubeheadroom.schemas.ContainerSnapshot;
import dev.kubeheadroom.schemas.HeadroomKeys;
import dev.kubeheadroom.schemas.PodSnapshot;
import dev.kubeheadroom.schemas.ResizeStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code ResizeInfeasible} Warning event of docs/design/headroom-design.txt §6.4, once per Infeasible episode of a pod.
 * Ingest writes it because it is the only stage that sees the kubelet's answer (pod status); the
 * topology's backoff and the {@code result="infeasible"} count come from the same snapshot.
 *
 * <p>An episode starts when a pod's snapshot shows {@link ResizeStatus#INFEASIBLE} and the pod was
 * not already known Infeasible by this process (first sight after start counts: runbook "Backoff
 * after a restart/failover" expects the event again then), and ends with any other status. Only
 * the Lease holder writes, and only for pods in a namespace the config in force manages that do
 * not opt out, are Burstable and not finished: pods Headroom may resize, so an Infeasible answer
 * elsewhere (another actor's resize) is not Headroom's to announce. The state is one uid per pod in
 * an episode, dropped when the episode ends or the pod is deleted.
 *
 * <p>The {@link IngestLoop} shows it each pod snapshot after handing the snapshot to the sink,
 * outside any lock; writes run on one daemon thread behind a bounded queue, so the loop never
 * waits for the API server. A write that fails (or does not fit the queue) is logged and counted and
 * not retried: the event is a courtesy; the backoff does not depend on it.
 */
final class InfeasibleEvents implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(InfeasibleEvents.class);
  static final String REPORTING_CONTROLLER = HeadroomKeys.GROUP + "/ingest";
  static final String REASON = "ResizeInfeasible";
  static final String ACTION = "Resize";
  /** Events waiting to be written; Infeasible is near-impossible, so this only bounds a storm. */
  static final int QUEUE_CAPACITY = 1024;

  private final PodEvents events;
  private final IngestMetrics metrics;
  private final BooleanSupplier leading;
  private final Predicate<String> namespaceManaged;
  private final Set<String> infeasible = new HashSet<>(); // uids in an announced episode; guarded by this
  private final ThreadPoolExecutor writer;

  /**
   * @param leading whether this instance holds the Lease now
   * @param namespaceManaged whether the config in force manages pods of a namespace
   */
  InfeasibleEvents(PodEvents events, IngestMetrics metrics, BooleanSupplier leading,
      Predicate<String> namespaceManaged) {
    this.events = events;
    this.metrics = metrics;
    this.leading = leading;
    this.namespaceManaged = namespaceManaged;
    this.writer = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS,
        new ArrayBlockingQueue<>(QUEUE_CAPACITY), r -> {
          Thread t = new Thread(r, "headroom-ingest-events");
          t.setDaemon(true);
          return t;
        }, (task, executor) -> {
          if (!executor.isShutdown()) {
            LOG.warn("event queue full ({} waiting): a ResizeInfeasible event is dropped", QUEUE_CAPACITY);
            metrics.eventFailed();
          }
        });
    metrics.infeasibleGauge(this::tracked);
  }

  /**
   * A snapshot of {@code pod} was just published (its status or another booked field changed).
   *
   * @param pod the cached (stripped) pod it was projected from, for the kubelet's message
   */
  synchronized void observe(PodSnapshot snapshot, Pod pod) {
    if (snapshot.resize() != ResizeStatus.INFEASIBLE) {
      infeasible.remove(snapshot.uid());
      return;
    }
    if (infeasible.contains(snapshot.uid()) || !leading.getAsBoolean() || !concerns(snapshot)) {
      return;
    }
    infeasible.add(snapshot.uid());
    PodEvent event = new PodEvent(snapshot.namespace(), snapshot.name(), snapshot.uid(), "Warning",
        REASON, ACTION, note(snapshot, kubeletMessage(pod)));
    writer.execute(() -> write(event));
  }

  /** The pod was deleted: forget it. */
  synchronized void forget(String uid) {
    infeasible.remove(uid);
  }

  /** Pods in an announced Infeasible episode: a gauge, so a state that leaks shows. */
  private synchronized int tracked() {
    return infeasible.size();
  }

  private boolean concerns(PodSnapshot s) {
    return !s.terminal()
        && PodSnapshot.QOS_BURSTABLE.equals(s.qosClass())
        && !HeadroomKeys.UNMANAGED.equals(s.mode())
        && namespaceManaged.test(s.namespace());
  }

  private void write(PodEvent event) {
    try {
      if (!events.write(event)) {
        metrics.eventFailed();
      }
    } catch (RuntimeException e) { // e.g. a client closing under us: count it, keep the thread
      LOG.warn("Pod({}/{}): cannot write event {}: {}", event.namespace(), event.name(),
          event.reason(), e.toString());
      metrics.eventFailed();
    }
  }

  /**
   * One line: the CPU limits in the spec (what the kubelet was asked to apply) and the kubelet's
   * words, e.g. {@code kubelet cannot apply the resize to CPU limits app=3000m: Node didn't have
   * enough capacity: cpu, requested: 5000, capacity: 4000}.
   */
  static String note(PodSnapshot snapshot, String kubeletMessage) {
    List<String> limits = new ArrayList<>();
    for (ContainerSnapshot c : snapshot.limitBearingContainers()) {
      if (c.cpuLimitMilli() > 0) {
        limits.add(c.name() + "=" + c.cpuLimitMilli() + "m");
      }
    }
    StringBuilder note = new StringBuilder("kubelet cannot apply the resize");
    if (!limits.isEmpty()) {
      note.append(" to CPU limits ").append(String.join(", ", limits));
    }
    String message = kubeletMessage == null ? "" : kubeletMessage.replaceAll("\\s+", " ").strip();
    if (!message.isEmpty()) {
      note.append(": ").append(message);
    }
    return note.toString();
  }

  /** The message of the pod's {@code PodResizePending/Infeasible} condition; null without one. */
  static String kubeletMessage(Pod pod) {
    // the pre-1.33 status.resize field carries no message
    return pod == null ? null
        : PodProjection.infeasibleCondition(pod.getStatus()).map(PodCondition::getMessage).orElse(null);
  }

  /** Drops what has not been written yet (the process is stopping). */
  @Override
  public void close() {
    writer.shutdownNow();
  }
}
