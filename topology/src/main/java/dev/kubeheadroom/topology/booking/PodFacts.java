package dev.kubeheadroom.topology.booking;

import dev.kubeheadroom.policy.ContainerInput;
import dev.kubeheadroom.schemas.ContainerSnapshot;
import dev.kubeheadroom.schemas.GangKey;
import dev.kubeheadroom.schemas.Ineligibility;
import dev.kubeheadroom.schemas.PodSnapshot;
import java.util.List;

/**
 * What a decision reads of one pod snapshot, worked out once when the snapshot is booked: a node
 * is decided at every change on it, each time over all its pods, while a pod's snapshot changes
 * far less often. Derived from the snapshot alone, so never stored (the changelog carries the
 * snapshot, {@code PodEntrySerde}); {@code NodeDeciderRowsTest} holds each fact to its plain form.
 */
public final class PodFacts {
  private final PodSnapshot pod;
  private final String namespace;
  private final long maxCpuMilli;
  private final String annotatedGang;
  private final Ineligibility snapshotGate;
  private final long requestMilli;
  private final List<ContainerInput> containers;
  private final long currentLimitMilli;
  private final long fixedLimitsMilli;

  private PodFacts(PodSnapshot pod) {
    this.pod = pod;
    this.namespace = pod.namespace();
    this.maxCpuMilli = pod.maxCpuMilli();
    this.annotatedGang = GangKey.of(pod, List.of());
    this.requestMilli = pod.effectiveRequestMilli();
    this.snapshotGate = Ineligibility.ofSnapshot(pod, requestMilli);
    this.containers = inputs(pod.limitBearingContainers());
    this.currentLimitMilli = ContainerInput.podCurrentLimitMilli(containers);
    this.fixedLimitsMilli = NodeDecider.fixedLimitsMilli(pod, containers);
  }

  /** The containers as the policy's inputs, immutable (most pods have one: no array for it). */
  private static List<ContainerInput> inputs(List<ContainerSnapshot> bearing) {
    if (bearing.size() == 1) {
      return List.of(input(bearing.get(0)));
    }
    ContainerInput[] inputs = new ContainerInput[bearing.size()];
    for (int i = 0; i < inputs.length; i++) {
      inputs[i] = input(bearing.get(i));
    }
    return List.of(inputs);
  }

  private static ContainerInput input(ContainerSnapshot c) {
    return new ContainerInput(c.name(), c.cpuRequestMilli(), c.cpuLimitMilli(), c.memoryGuaranteed());
  }

  static PodFacts of(PodSnapshot pod) {
    return new PodFacts(pod);
  }

  /** Whether these were read from {@code snapshot} itself (not an equal copy: that is not checked). */
  boolean readFrom(PodSnapshot snapshot) {
    return pod == snapshot;
  }

  /**
   * The first of the eligibility gates that depend on the snapshot alone and fails, or null:
   * {@link Ineligibility#TERMINAL}, or one of those checked after the node's and the namespace's
   * ({@link Eligibility#whyNot} keeps the order).
   */
  Ineligibility snapshotGate() {
    return snapshotGate;
  }

  /** The pod's namespace (read here so a decision's walk need not visit the snapshot). */
  String namespace() {
    return namespace;
  }

  /** The pod's max-cpu annotation, {@link PodSnapshot#maxCpuMilli}. */
  long maxCpuMilli() {
    return maxCpuMilli;
  }

  /**
   * {@link GangKey#of} the pod under {@code ownerKinds}: the annotation's gang, computed once,
   * decides before any owner, so only a pod without one and a config with owner kinds asks again.
   */
  String gang(List<String> ownerKinds) {
    return annotatedGang != null || ownerKinds.isEmpty() ? annotatedGang : GangKey.of(pod, ownerKinds);
  }

  /** {@link PodSnapshot#effectiveRequestMilli}. */
  long requestMilli() {
    return requestMilli;
  }

  /** The limit-bearing containers as the policy's inputs, at the snapshot's limits. */
  List<ContainerInput> containers() {
    return containers;
  }

  /** {@link ContainerInput#podCurrentLimitMilli} of {@link #containers}. */
  long currentLimitMilli() {
    return currentLimitMilli;
  }

  /** {@link NodeDecider#fixedLimitsMilli} of {@link #containers}. */
  long fixedLimitsMilli() {
    return fixedLimitsMilli;
  }

  @Override
  public String toString() {
    return "PodFacts[" + pod.uid() + "]";
  }
}
