package dev.kubeheadroom.installed;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The kubelet's {@code restartPolicy: Always} for the installation's replicas during the fault
 * suite: a replica that exits on its own is started again after the kubelet's CrashLoopBackOff
 * (10 s, doubling per exit up to 5 minutes; pkg/kubelet/kubelet.go {@code backOffPeriod},
 * {@code MaxContainerBackOff}) and recorded, since a stage that exits under a fault is part of
 * what the suite reports, and the back-off is part of how long it takes to recover. Replicas the
 * suite kills itself are left to the suite.
 */
final class ReplicaKeeper implements AutoCloseable {
  static final Duration FIRST_BACKOFF = Duration.ofSeconds(10);
  static final Duration MAX_BACKOFF = Duration.ofMinutes(5);

  private final Installation installation;
  private final Set<String> plannedDown = ConcurrentHashMap.newKeySet();
  private final List<String> restarts = new CopyOnWriteArrayList<>();
  private final Map<String, Integer> exits = new ConcurrentHashMap<>();
  private final Map<String, Instant> due = new ConcurrentHashMap<>();
  private final Thread thread;
  private volatile boolean running = true;

  ReplicaKeeper(Installation installation) {
    this.installation = installation;
    thread = new Thread(this::watch, "replica-keeper");
    thread.setDaemon(true);
    thread.start();
  }

  /** The suite kills {@code podName} itself: not an unplanned exit. */
  void planned(String podName) {
    plannedDown.add(podName);
  }

  void unplanned(String podName) {
    plannedDown.remove(podName);
  }

  /** Every unplanned restart so far, as {@code pod (exit code) after back-off}. */
  List<String> restarts() {
    return List.copyOf(restarts);
  }

  private void watch() {
    while (running) {
      for (StageProcess p : installation.processes()) {
        if (p.alive() || plannedDown.contains(p.podName())) {
          continue;
        }
        Instant restartAt = due.computeIfAbsent(p.podName(), pod -> {
          int n = exits.merge(pod, 1, Integer::sum);
          Duration backoff = FIRST_BACKOFF.multipliedBy(1L << Math.min(n - 1, 5));
          backoff = backoff.compareTo(MAX_BACKOFF) > 0 ? MAX_BACKOFF : backoff;
          FaultSuite.progress(pod + " exited on its own (exit " + p.exitCode() + ", exit #" + n
              + "); restarting it in " + backoff.toSeconds() + " s");
          return Instant.now().plus(backoff);
        });
        if (!Instant.now().isBefore(restartAt)) {
          installation.restart(p);
          due.remove(p.podName());
          restarts.add(p.podName() + " (exit " + p.exitCode() + ")");
        }
      }
      InstalledTier.sleep(Duration.ofMillis(500));
    }
  }

  @Override
  public void close() {
    running = false;
    try {
      thread.join(30_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
