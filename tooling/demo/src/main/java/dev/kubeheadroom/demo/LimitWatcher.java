package dev.kubeheadroom.demo;

import dev.kubeheadroom.projection.CpuQuantity;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * Watches the API server for CPU limit changes that the scenario did not write itself: those are
 * Headroom's resizes, reported as they happen.
 */
final class LimitWatcher implements AutoCloseable {
  private final Clock clock;
  private final Consumer<LimitChange> onChange;
  private final Set<String> scenarioVersions;
  private final List<LimitChange> changes = new ArrayList<>();
  private final Map<String, java.time.Instant> firstChangeByUid = new ConcurrentHashMap<>();
  private final SharedIndexInformer<Pod> informer;

  /**
   * @param scenarioVersions resourceVersions the scenario player wrote (their changes are not
   *     Headroom's)
   */
  LimitWatcher(KubernetesClient client, Clock clock, Set<String> scenarioVersions, Consumer<LimitChange> onChange) {
    this.clock = clock;
    this.scenarioVersions = scenarioVersions;
    this.onChange = onChange;
    this.informer = client.pods().inAnyNamespace().inform(new ResourceEventHandler<>() {
      @Override
      public void onAdd(Pod pod) {}

      @Override
      public void onUpdate(Pod before, Pod after) {
        compare(before, after);
      }

      @Override
      public void onDelete(Pod pod, boolean unknownFinalState) {}
    });
  }

  private void compare(Pod before, Pod after) {
    if (scenarioVersions.contains(after.getMetadata().getResourceVersion())) {
      return;
    }
    Map<String, Long> old = limits(before);
    for (Map.Entry<String, Long> e : limits(after).entrySet()) {
      long from = old.getOrDefault(e.getKey(), 0L);
      if (from != e.getValue()) {
        LimitChange change = new LimitChange(clock.instant(), after.getMetadata().getNamespace(),
            after.getMetadata().getName(), after.getSpec().getNodeName(), e.getKey(), from, e.getValue());
        synchronized (changes) {
          changes.add(change);
        }
        firstChangeByUid.putIfAbsent(after.getMetadata().getUid(), change.at());
        onChange.accept(change);
      }
    }
  }

  private static Map<String, Long> limits(Pod pod) {
    Map<String, Long> limits = new HashMap<>();
    Stream.concat(
            pod.getSpec().getInitContainers() == null ? Stream.empty() : pod.getSpec().getInitContainers().stream(),
            pod.getSpec().getContainers().stream())
        .forEach(c -> limits.put(c.getName(), cpuLimit(c)));
    return limits;
  }

  private static long cpuLimit(Container c) {
    if (c.getResources() == null || c.getResources().getLimits() == null) {
      return 0;
    }
    return CpuQuantity.milliOrZero(c.getResources().getLimits().get("cpu"));
  }

  List<LimitChange> changes() {
    synchronized (changes) {
      return List.copyOf(changes);
    }
  }

  /** When a pod's limit first changed, by uid. */
  Map<String, java.time.Instant> firstChanges() {
    return Map.copyOf(firstChangeByUid);
  }

  java.time.Instant lastChange() {
    synchronized (changes) {
      return changes.isEmpty() ? null : changes.get(changes.size() - 1).at();
    }
  }

  @Override
  public void close() {
    informer.close();
  }
}
