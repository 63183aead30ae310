package dev.kubeheadroom.projection;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.List;
import java.util.Optional;

/**
 * A {@code null} element in a pod's lists ({@code [null]} in a log or a review): no API server
 * stores one, and the projection (or the webhook's birth limit) would read past it. The pod is
 * invalid ({@link ProjectionException} naming the element's path), as a missing uid is; the log's
 * line is then counted as malformed, and the webhook admits the pod unchanged.
 */
public final class NullElements {
  private NullElements() {}

  /** @throws ProjectionException naming the first null element of the pod's lists */
  static void refuse(Pod pod) {
    firstNull(pod).ifPresent(path -> {
      throw new ProjectionException(PodProjection.ref(pod) + ": " + path + " is null");
    });
  }

  /** The path of the first null element of the pod's lists ({@code spec.containers[1]}), if any. */
  public static Optional<String> firstNull(Pod pod) {
    Optional<String> found = Optional.empty();
    if (pod.getMetadata() != null) {
      found = check("metadata.ownerReferences", pod.getMetadata().getOwnerReferences());
    }
    if (found.isEmpty() && pod.getSpec() != null) {
      found = containers("spec.initContainers", pod.getSpec().getInitContainers())
          .or(() -> containers("spec.containers", pod.getSpec().getContainers()));
    }
    if (found.isEmpty() && pod.getStatus() != null) {
      found = check("status.conditions", pod.getStatus().getConditions());
    }
    return found;
  }

  private static Optional<String> containers(String path, List<Container> list) {
    Optional<String> found = check(path, list);
    for (int i = 0; found.isEmpty() && list != null && i < list.size(); i++) {
      found = check(path + "[" + i + "].resizePolicy", list.get(i).getResizePolicy());
    }
    return found;
  }

  private static Optional<String> check(String path, List<?> list) {
    if (list == null) {
      return Optional.empty();
    }
    int i = 0;
    for (Object element : list) { // not indexOf(null): immutable lists (List.of) throw on it
      if (element == null) {
        return Optional.of(path + "[" + i + "]");
      }
      i++;
    }
    return Optional.empty();
  }
}
