package dev.kubeheadroom.projection;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.List;

/**
 * A {@code null} element in a pod's lists ({@code [null]} in a log): no API server stores one, and
 * the projection would read past it. The pod is invalid ({@link ProjectionException} naming the
 * element's path), as a missing uid is; the log's line is then counted as malformed.
 */
final class NullElements {
  private NullElements() {}

  /** @throws ProjectionException naming the first null element of the pod's lists */
  static void refuse(Pod pod) {
    if (pod.getMetadata() != null) {
      check(pod, "metadata.ownerReferences", pod.getMetadata().getOwnerReferences());
    }
    if (pod.getSpec() != null) {
      containers(pod, "spec.initContainers", pod.getSpec().getInitContainers());
      containers(pod, "spec.containers", pod.getSpec().getContainers());
    }
    if (pod.getStatus() != null) {
      check(pod, "status.conditions", pod.getStatus().getConditions());
    }
  }

  private static void containers(Pod pod, String path, List<Container> list) {
    check(pod, path, list);
    if (list != null) {
      for (int i = 0; i < list.size(); i++) {
        check(pod, path + "[" + i + "].resizePolicy", list.get(i).getResizePolicy());
      }
    }
  }

  private static void check(Pod pod, String path, List<?> list) {
    if (list == null) {
      return;
    }
    int i = 0;
    for (Object element : list) { // not indexOf(null): immutable lists (List.of) throw on it
      if (element == null) {
        throw new ProjectionException(PodProjection.ref(pod) + ": " + path + "[" + i + "] is null");
      }
      i++;
    }
  }
}
