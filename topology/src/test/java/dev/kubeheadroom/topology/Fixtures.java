package dev.kubeheadroom.topology;

import dev.kubeheadroom.schemas.ContainerKind;
import dev.kubeheadroom.schemas.ContainerSnapshot;
import dev.kubeheadroom.schemas.HeadroomKeys;
import dev.kubeheadroom.schemas.NamespaceInfo;
import dev.kubeheadroom.schemas.NodeSnapshot;
import dev.kubeheadroom.schemas.PodSnapshot;
import dev.kubeheadroom.schemas.ResizeStatus;
import java.util.List;
import java.util.Map;

/** Small builders for the records scenarios feed in. */
final class Fixtures {
  private Fixtures() {}

  static NodeSnapshot node(String name, long allocatableMilli) {
    return new NodeSnapshot(name, allocatableMilli, "linux", false, Map.of());
  }

  static NamespaceInfo managedNs(String name) {
    return new NamespaceInfo(name, Map.of(HeadroomKeys.MODE_LABEL, HeadroomKeys.MANAGED), 0);
  }

  static NamespaceInfo ns(String name, String modeLabel) {
    return new NamespaceInfo(name, modeLabel == null ? Map.of() : Map.of(HeadroomKeys.MODE_LABEL, modeLabel), 0);
  }

  /** A Burstable one-container pod with the given request and limit (0 = none). */
  static PodSnapshot pod(String ns, String name, String node, long requestMilli, long limitMilli) {
    return new PodSnapshot("uid-" + name, ns, name, node, "Running", "Burstable", "1", 1, null, 0,
        null, false, List.of(),
        List.of(new ContainerSnapshot("app", ContainerKind.APP, requestMilli, limitMilli, false, false)),
        ResizeStatus.NONE);
  }

  static PodSnapshot withLimit(PodSnapshot pod, long limitMilli) {
    ContainerSnapshot c = pod.containers().get(0);
    return pod.withContainers(List.of(new ContainerSnapshot(c.name(), c.kind(), c.cpuRequestMilli(),
        limitMilli, c.memoryGuaranteed(), c.cpuResizeRestarts())));
  }

  static PodSnapshot withRequest(PodSnapshot pod, long requestMilli) {
    ContainerSnapshot c = pod.containers().get(0);
    return pod.withContainers(List.of(new ContainerSnapshot(c.name(), c.kind(), requestMilli,
        c.cpuLimitMilli(), c.memoryGuaranteed(), c.cpuResizeRestarts())));
  }

  static PodSnapshot phase(PodSnapshot p, String phase) {
    return new PodSnapshot(p.uid(), p.namespace(), p.name(), p.node(), phase, p.qosClass(),
        p.resourceVersion(), p.generation(), p.mode(), p.maxCpuMilli(), p.maxCpuInvalid(),
        p.vpaControlsLimits(), p.owners(), p.containers(), p.resize());
  }

  static PodSnapshot resize(PodSnapshot p, ResizeStatus status) {
    return new PodSnapshot(p.uid(), p.namespace(), p.name(), p.node(), p.phase(), p.qosClass(),
        p.resourceVersion(), p.generation(), p.mode(), p.maxCpuMilli(), p.maxCpuInvalid(),
        p.vpaControlsLimits(), p.owners(), p.containers(), status);
  }
}
