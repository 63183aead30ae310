package dev.kubeheadroom.schemas;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonSetter;
import com.fasterxml.jackson.annotation.Nulls;
import dev.kubeheadroom.policy.Saturating;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The fields of a pod that Headroom's decisions depend on (docs/design/pipeline.md "Records"). Ingest
 * publishes one only when one of these changed, so status churn never reaches the topology.
 *
 * @param uid pod uid (identity across delete/recreate with the same name)
 * @param namespace namespace
 * @param name name
 * @param node spec.nodeName (the record key)
 * @param phase status.phase (Pending, Running, Succeeded, Failed, Unknown)
 * @param qosClass status.qosClass (Guaranteed, Burstable, BestEffort; may be empty if unknown)
 * @param resourceVersion metadata.resourceVersion, for audit only (never part of a decision)
 * @param generation metadata.generation (bumped by each resize)
 * @param mode the pod's {@code kube-headroom.dev/mode} label value, or null
 * @param maxCpuMilli the parsed {@code kube-headroom.dev/max-cpu} annotation; 0 = none or invalid
 * @param maxCpuInvalid the raw annotation value when it did not parse (ignored, warned), else null
 * @param vpaControlsLimits a VerticalPodAutoscaler that writes limits targets this pod
 * @param owners owner references
 * @param containers init containers (incl. sidecars) in spec order, then app containers
 * @param resize the kubelet's view of the last resize
 * @param podLevelResources {@code spec.resources} sets requests or limits: the API server refuses
 *     to resize such a pod (422), so it is never managed. Added to schema 1 (additive): a record
 *     written before it reads as false.
 * @param epoch the publishing ingest leadership ({@link NodeEvent#epoch}); not part of the pod:
 *     {@link #sameBooking} ignores it, and every {@code with…} copy keeps it
 * @param gang the pod's {@code kube-headroom.dev/gang} annotation (its gang within its namespace,
 *     {@link GangKey}), or null. Added to schema 1 (additive): not written when null, so a pod
 *     without it keeps its bytes, and a record written before it reads as no gang.
 */
public record PodSnapshot(
    String uid,
    String namespace,
    String name,
    String node,
    String phase,
    String qosClass,
    String resourceVersion,
    long generation,
    String mode,
    long maxCpuMilli,
    String maxCpuInvalid,
    boolean vpaControlsLimits,
    List<OwnerRef> owners,
    List<ContainerSnapshot> containers,
    ResizeStatus resize,
    @JsonSetter(nulls = Nulls.AS_EMPTY) boolean podLevelResources,
    @JsonInclude(JsonInclude.Include.NON_DEFAULT) @JsonSetter(nulls = Nulls.AS_EMPTY) long epoch,
    @JsonInclude(JsonInclude.Include.NON_NULL) String gang)
    implements NodeEvent {

  public static final String QOS_BURSTABLE = "Burstable";

  public PodSnapshot {
    Require.text(uid, "uid");
    Require.text(namespace, "namespace");
    Require.text(name, "name");
    Require.text(node, "node");
    phase = phase == null ? "" : phase;
    qosClass = qosClass == null ? "" : qosClass;
    Require.nonNegative(maxCpuMilli, "maxCpuMilli");
    owners = Require.list(owners);
    containers = Require.list(containers);
    resize = resize == null ? ResizeStatus.NONE : resize;
    Require.nonNegative(epoch, "epoch");
  }

  /** A pod in no gang (every pod before gangs, §11.6). */
  public PodSnapshot(String uid, String namespace, String name, String node, String phase,
      String qosClass, String resourceVersion, long generation, String mode, long maxCpuMilli,
      String maxCpuInvalid, boolean vpaControlsLimits, List<OwnerRef> owners,
      List<ContainerSnapshot> containers, ResizeStatus resize, boolean podLevelResources, long epoch) {
    this(uid, namespace, name, node, phase, qosClass, resourceVersion, generation, mode, maxCpuMilli,
        maxCpuInvalid, vpaControlsLimits, owners, containers, resize, podLevelResources, epoch, null);
  }

  /** A pod as projected, before any leader stamps it. */
  public PodSnapshot(String uid, String namespace, String name, String node, String phase,
      String qosClass, String resourceVersion, long generation, String mode, long maxCpuMilli,
      String maxCpuInvalid, boolean vpaControlsLimits, List<OwnerRef> owners,
      List<ContainerSnapshot> containers, ResizeStatus resize, boolean podLevelResources) {
    this(uid, namespace, name, node, phase, qosClass, resourceVersion, generation, mode, maxCpuMilli,
        maxCpuInvalid, vpaControlsLimits, owners, containers, resize, podLevelResources, 0);
  }

  /** A pod without pod-level resources (nearly every pod). */
  public PodSnapshot(String uid, String namespace, String name, String node, String phase,
      String qosClass, String resourceVersion, long generation, String mode, long maxCpuMilli,
      String maxCpuInvalid, boolean vpaControlsLimits, List<OwnerRef> owners,
      List<ContainerSnapshot> containers, ResizeStatus resize) {
    this(uid, namespace, name, node, phase, qosClass, resourceVersion, generation, mode, maxCpuMilli,
        maxCpuInvalid, vpaControlsLimits, owners, containers, resize, false);
  }

  /** {@code namespace/name}, for logs and metrics. */
  @JsonIgnore
  public String ref() {
    return namespace + "/" + name;
  }

  /** Succeeded and Failed pods count nowhere: not in slack, not managed. */
  @JsonIgnore
  public boolean terminal() {
    return "Succeeded".equals(phase) || "Failed".equals(phase);
  }

  /** App containers and sidecars, spec order: the containers whose limits Headroom sets. */
  @JsonIgnore
  public List<ContainerSnapshot> limitBearingContainers() {
    for (ContainerSnapshot c : containers) {
      if (!c.limitBearing()) {
        return containers.stream().filter(ContainerSnapshot::limitBearing).toList();
      }
    }
    return containers; // most pods have no init containers: no copy (read per pod per decision)
  }

  /**
   * The pod's effective CPU request as the scheduler books it: max(Σ app + Σ sidecar, max over
   * init containers of (its request + the sidecars started before it)). Saturates at
   * {@link Long#MAX_VALUE}: the API server accepts requests up to the 64-bit millicore range.
   */
  @JsonIgnore
  public long effectiveRequestMilli() {
    long sidecarsSoFar = 0;
    long initPeak = 0;
    long running = 0;
    for (ContainerSnapshot c : containers) {
      switch (c.kind()) {
        case INIT -> initPeak = Math.max(initPeak, Saturating.add(c.cpuRequestMilli(), sidecarsSoFar));
        case SIDECAR -> {
          sidecarsSoFar = Saturating.add(sidecarsSoFar, c.cpuRequestMilli());
          running = Saturating.add(running, c.cpuRequestMilli());
          initPeak = Math.max(initPeak, sidecarsSoFar);
        }
        case APP -> running = Saturating.add(running, c.cpuRequestMilli());
      }
    }
    return Math.max(running, initPeak);
  }

  /** The same pod with other containers (a simulated resize, or a snapshot confirming one). */
  public PodSnapshot withContainers(List<ContainerSnapshot> newContainers) {
    return new PodSnapshot(uid, namespace, name, node, phase, qosClass, resourceVersion, generation,
        mode, maxCpuMilli, maxCpuInvalid, vpaControlsLimits, owners, newContainers, resize,
        podLevelResources, epoch, gang);
  }

  /**
   * The same pod with the named containers at new CPU limits (millicores; containers not named
   * keep theirs); this pod itself when none is named.
   */
  public PodSnapshot withCpuLimits(Map<String, Long> limits) {
    if (limits == null || limits.isEmpty()) {
      return this;
    }
    return withContainers(cpuLimited(limits));
  }

  /** The containers with the named ones at new CPU limits, as an immutable list (not copied again). */
  private List<ContainerSnapshot> cpuLimited(Map<String, Long> limits) {
    ContainerSnapshot[] next = new ContainerSnapshot[containers.size()];
    for (int i = 0; i < next.length; i++) {
      ContainerSnapshot c = containers.get(i);
      Long limit = limits.get(c.name());
      next[i] = limit == null ? c : new ContainerSnapshot(c.name(), c.kind(), c.cpuRequestMilli(), limit,
          c.memoryGuaranteed(), c.cpuResizeRestarts());
    }
    return List.of(next);
  }

  /**
   * The pod as an applied in-place resize leaves it: {@link #withCpuLimits}, and the generation
   * bumped as the API server bumps it for a resize (simulated actuators feed this back).
   */
  public PodSnapshot resized(Map<String, Long> limits) {
    List<ContainerSnapshot> next = limits == null || limits.isEmpty() ? containers : cpuLimited(limits);
    return new PodSnapshot(uid, namespace, name, node, phase, qosClass, resourceVersion,
        generation + 1, mode, maxCpuMilli, maxCpuInvalid, vpaControlsLimits, owners, next,
        resize, podLevelResources, epoch, gang);
  }

  /** The same pod in gang {@code value} (its annotation; null: none). */
  public PodSnapshot withGang(String value) {
    return new PodSnapshot(uid, namespace, name, node, phase, qosClass, resourceVersion, generation,
        mode, maxCpuMilli, maxCpuInvalid, vpaControlsLimits, owners, containers, resize,
        podLevelResources, epoch, value);
  }

  @Override
  public PodSnapshot withEpoch(long value) {
    return value == epoch ? this : new PodSnapshot(uid, namespace, name, node, phase, qosClass,
        resourceVersion, generation, mode, maxCpuMilli, maxCpuInvalid, vpaControlsLimits, owners,
        containers, resize, podLevelResources, value, gang);
  }

  /**
   * Equal in every field a decision depends on (ignores resourceVersion and epoch): the record's
   * equality over its other components, compared in place. It is asked for every watch line and
   * every booked event, and building two copies of both pods to compare them was a few percent
   * of a replay (PodSnapshotTest holds it to that definition).
   */
  public boolean sameBooking(PodSnapshot other) {
    return other != null
        && generation == other.generation
        && maxCpuMilli == other.maxCpuMilli
        && vpaControlsLimits == other.vpaControlsLimits
        && podLevelResources == other.podLevelResources
        && resize == other.resize
        && uid.equals(other.uid)
        && node.equals(other.node)
        && namespace.equals(other.namespace)
        && name.equals(other.name)
        && phase.equals(other.phase)
        && qosClass.equals(other.qosClass)
        && Objects.equals(mode, other.mode)
        && Objects.equals(maxCpuInvalid, other.maxCpuInvalid)
        && Objects.equals(gang, other.gang)
        && containers.equals(other.containers)
        && owners.equals(other.owners);
  }
}
