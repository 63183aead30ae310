package dev.kubeheadroom.demo;

import dev.kubeheadroom.projection.WatchEvent;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * Plays a scenario into the simulated API server: each object is created, changed or deleted at
 * its {@code at} time (divided by the speed), as its state — no admission in between. A container
 * limit Headroom has changed since the scenario last wrote the pod is Headroom's: a later line
 * changes the container's request, never that limit (as in {@code simulate}).
 */
final class ScenarioPlayer {
  private final KubernetesClient client;
  private final Clock clock;
  private final double speed;
  private final Set<String> writtenVersions = ConcurrentHashMap.newKeySet();
  private final Map<String, Pod> lastPlayed = new HashMap<>();
  private final Map<String, Instant> bindTimes = new ConcurrentHashMap<>();
  private long played;
  private long failed;
  private String firstFailure;

  ScenarioPlayer(KubernetesClient seedClient, Clock clock, double speed) {
    this.client = seedClient;
    this.clock = clock;
    this.speed = speed;
  }

  /** resourceVersions this player wrote: limit changes in them are not Headroom's. */
  Set<String> writtenVersions() {
    return writtenVersions;
  }

  /** When each pod (uid) was first seen bound to a node. */
  Map<String, Instant> bindTimes() {
    return bindTimes;
  }

  long played() {
    return played;
  }

  long failed() {
    return failed;
  }

  /** The first event the API server refused, for the user; null when none was. */
  String firstFailure() {
    return firstFailure;
  }

  /** Plays every event at its time; returns when the last one is played. */
  void play(List<WatchEvent> events) throws InterruptedException {
    if (events.isEmpty()) {
      return;
    }
    Instant logStart = events.get(0).at();
    Instant wallStart = clock.instant();
    for (WatchEvent event : events) {
      Duration offset = Duration.between(logStart, event.at());
      Instant due = wallStart.plusNanos(Math.round(offset.toNanos() / speed));
      long waitMs = Duration.between(clock.instant(), due).toMillis();
      if (waitMs > 0) {
        Thread.sleep(waitMs); // pacing the scenario in real time is the point here
      }
      try {
        apply(event);
        played++;
      } catch (RuntimeException e) {
        failed++;
        if (firstFailure == null) {
          firstFailure = event.ref() + " (" + event.type() + "): " + e.getMessage();
        }
      }
    }
  }

  /** Applies one event; a write that races the kubelet's status updates (409) is retried. */
  void apply(WatchEvent event) {
    for (int attempt = 1; ; attempt++) {
      try {
        applyOnce(event);
        return;
      } catch (io.fabric8.kubernetes.client.KubernetesClientException e) {
        if (e.getCode() != 409 || attempt >= 8) {
          throw e;
        }
        // the simulated kubelet answers each write with a status write: let it settle
        java.util.concurrent.locks.LockSupport.parkNanos(Duration.ofMillis(25L * attempt).toNanos());
      }
    }
  }

  private void applyOnce(WatchEvent event) {
    HasMetadata object = withoutVersion(event.object());
    if (event.type() == WatchEvent.Type.DELETED) {
      client.resource(object).delete();
      if (object instanceof Pod pod) {
        lastPlayed.remove(pod.getMetadata().getUid());
      }
      return;
    }
    if (object instanceof Pod pod) {
      playPod(pod);
    } else if (object instanceof GenericKubernetesResource generic) {
      record(client.resource(generic).createOr(NonDeletingOperation::update));
    } else {
      record(client.resource(object).createOr(NonDeletingOperation::update));
    }
  }

  private void playPod(Pod pod) {
    String uid = pod.getMetadata().getUid();
    Pod current = client.pods().inNamespace(pod.getMetadata().getNamespace())
        .withName(pod.getMetadata().getName()).get();
    Pod previous = lastPlayed.get(uid);
    Pod toWrite = pod;
    if (current != null && previous != null && uid != null && uid.equals(current.getMetadata().getUid())) {
      toWrite = keepHeadroomLimits(pod, previous, current);
    }
    Pod written;
    if (current == null) {
      written = client.resource(toWrite).create();
    } else {
      Pod versioned = io.fabric8.kubernetes.client.utils.Serialization.clone(toWrite);
      versioned.getMetadata().setResourceVersion(current.getMetadata().getResourceVersion());
      written = client.resource(versioned).update();
    }
    record(written);
    lastPlayed.put(uid, pod);
    if (written.getSpec().getNodeName() != null && !written.getSpec().getNodeName().isEmpty()) {
      bindTimes.putIfAbsent(written.getMetadata().getUid(), clock.instant());
    }
  }

  /** The new object, with the CPU limits Headroom set since the last write kept. */
  static Pod keepHeadroomLimits(Pod next, Pod previous, Pod current) {
    Map<String, Quantity> headroomOwned = new HashMap<>();
    Map<String, Quantity> before = cpuLimits(previous);
    cpuLimits(current).forEach((name, limit) -> {
      if (!Objects.equals(before.get(name), limit)) {
        headroomOwned.put(name, limit);
      }
    });
    if (headroomOwned.isEmpty()) {
      return next;
    }
    Pod copy = io.fabric8.kubernetes.client.utils.Serialization.clone(next);
    containers(copy).forEach(c -> {
      Quantity limit = headroomOwned.get(c.getName());
      if (limit != null) {
        if (c.getResources().getLimits() == null) {
          c.getResources().setLimits(new HashMap<>());
        }
        c.getResources().getLimits().put("cpu", limit);
      }
    });
    return copy;
  }

  private static Map<String, Quantity> cpuLimits(Pod pod) {
    Map<String, Quantity> limits = new HashMap<>();
    containers(pod).forEach(c -> {
      if (c.getResources() != null && c.getResources().getLimits() != null
          && c.getResources().getLimits().get("cpu") != null) {
        limits.put(c.getName(), c.getResources().getLimits().get("cpu"));
      }
    });
    return limits;
  }

  private static List<Container> containers(Pod pod) {
    List<Container> all = new ArrayList<>();
    Stream.of(pod.getSpec().getInitContainers(), pod.getSpec().getContainers())
        .filter(Objects::nonNull).forEach(all::addAll);
    return all;
  }

  /**
   * The object without the log's resourceVersion: the log recorded another server's versions,
   * and writing "as its state" must not be refused as a stale update (409).
   */
  static HasMetadata withoutVersion(HasMetadata object) {
    if (object.getMetadata() == null || object.getMetadata().getResourceVersion() == null) {
      return object;
    }
    HasMetadata copy = io.fabric8.kubernetes.client.utils.Serialization.clone(object);
    copy.getMetadata().setResourceVersion(null);
    return copy;
  }

  private void record(HasMetadata written) {
    if (written != null && written.getMetadata().getResourceVersion() != null) {
      writtenVersions.add(written.getMetadata().getResourceVersion());
    }
  }
}
