package dev.kubeheadroom.kubedouble;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kubeheadroom.kubedouble.KubeletRules.ResizeProgram;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What a kubelet front end ({@link KubeletDouble} on the double's store, the real server's node
 * agent on its informers) keeps and runs beside {@link KubeletRules}: its worker thread, each
 * node's programmed answer, the pods whose resize is actuating or deferred, the actuation delay
 * and the count of status writes. Pods are named by a key the front end chooses.
 */
public final class KubeletWork implements AutoCloseable {
  /** How long an admitted resize shows {@code PodResizeInProgress} before it is actuated. */
  public static final Duration DEFAULT_ACTUATION_DELAY = Duration.ofMillis(20);

  private final ScheduledExecutorService worker;
  private final Map<String, ResizeProgram> programs = new ConcurrentHashMap<>();
  private final Set<String> actuating = ConcurrentHashMap.newKeySet();
  private final Set<String> deferred = ConcurrentHashMap.newKeySet();
  private final AtomicLong statusWrites = new AtomicLong();
  private volatile Duration actuationDelay = DEFAULT_ACTUATION_DELAY;

  /** {@code threadName}: the worker's (a daemon). */
  public KubeletWork(String threadName) {
    worker = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread thread = new Thread(r, threadName);
      thread.setDaemon(true);
      return thread;
    });
  }

  /** Runs {@code task} on the worker; false when the worker is closed. */
  public boolean execute(Runnable task) {
    try {
      worker.execute(task);
      return true;
    } catch (RejectedExecutionException closing) {
      return false;
    }
  }

  /** From now on, resizes of pods on {@code node} are answered by {@code program}. */
  public void program(String node, ResizeProgram program) {
    programs.put(node, program);
  }

  /**
   * {@link KubeletRules#reconcile} of {@code pod} (uid {@code uid}, on {@code node}) with this
   * front end's program, actuation and delay, as a kubelet of {@code version}; the pod's deferral
   * is noted under {@code key}.
   */
  public KubeletRules.Effect reconcile(ObjectNode pod, KubeletRules.NodeView view, String node, String uid,
      String key, ServerVersion version, String now) {
    KubeletRules.Effect effect = KubeletRules.reconcile(pod, view, programs.getOrDefault(node, ResizeProgram.APPLY),
        actuating.contains(uid), actuationDelay.isZero(), version, now);
    effect.recordDeferral(deferred, key);
    return effect;
  }

  /** Actuates pod {@code uid}: {@code reconcile} runs after the actuation delay, the pod actuating meanwhile. */
  public void actuateLater(String uid, Runnable reconcile) {
    actuating.add(uid);
    try {
      worker.schedule(() -> {
        actuating.remove(uid);
        reconcile.run();
      }, actuationDelay.toNanos(), TimeUnit.NANOSECONDS);
    } catch (RejectedExecutionException closing) {
      actuating.remove(uid);
    }
  }

  /** Pod {@code key} is gone: forgotten; returns the deferred pods to retry, since room was freed. */
  public List<String> deleted(String key) {
    deferred.remove(key);
    return List.copyOf(deferred);
  }

  /** See {@link KubeletDouble#actuationDelay}; zero actuates in the same status write. */
  public void actuationDelay(Duration delay) {
    if (delay.isNegative()) {
      throw new IllegalArgumentException("delay must not be negative: " + delay);
    }
    this.actuationDelay = delay;
  }

  public void statusWritten() {
    statusWrites.incrementAndGet();
  }

  public long statusWrites() {
    return statusWrites.get();
  }

  @Override
  public void close() {
    worker.shutdownNow();
    try {
      worker.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
