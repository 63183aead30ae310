package dev.kubeheadroom.schemas;

/**
 * The CPU-relevant part of one container.
 *
 * @param name container name
 * @param kind app, sidecar or init
 * @param cpuRequestMilli CPU request (0 = none)
 * @param cpuLimitMilli CPU limit (0 = none)
 * @param memoryGuaranteed memory request and limit both set and equal (QoS guard input)
 * @param cpuResizeRestarts the CPU resizePolicy is {@code RestartContainer}
 */
public record ContainerSnapshot(
    String name,
    ContainerKind kind,
    long cpuRequestMilli,
    long cpuLimitMilli,
    boolean memoryGuaranteed,
    boolean cpuResizeRestarts) {

  public ContainerSnapshot {
    Require.text(name, "container name");
    if (kind == null) {
      throw new IllegalArgumentException("container " + name + ": kind is required");
    }
    Require.nonNegative(cpuRequestMilli, "cpuRequestMilli");
    Require.nonNegative(cpuLimitMilli, "cpuLimitMilli");
  }

  /** App containers and sidecars run for the pod's life: their limits are Headroom's to set. */
  public boolean limitBearing() {
    return kind != ContainerKind.INIT;
  }
}
