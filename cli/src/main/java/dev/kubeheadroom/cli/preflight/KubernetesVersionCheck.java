package dev.kubeheadroom.cli.preflight;

/**
 * In-place pod resize is GA from Kubernetes 1.35 (docs/design/headroom-design.txt §4.1); 1.33 and 1.34 serve it as beta
 * behind the InPlacePodVerticalScaling gate (on by default); older servers cannot resize.
 */
public final class KubernetesVersionCheck implements Check {
  static final String NAME = "kubernetes-version";

  @Override
  public Result run(Cluster cluster) {
    KubeVersion v = cluster.version();
    if (!v.known()) {
      return Result.warn(NAME, "API server version " + v.gitVersion() + " does not parse",
          "check kubectl version: the control plane and managed nodes need Kubernetes >= 1.35");
    }
    if (v.atLeast(1, 35)) {
      return Result.pass(NAME, "API server " + v.gitVersion() + ": in-place pod resize is GA");
    }
    if (v.atLeast(1, 33)) {
      return Result.warn(NAME, "API server " + v.gitVersion()
              + ": in-place pod resize is beta, served only with the InPlacePodVerticalScaling feature gate on",
          "upgrade to Kubernetes >= 1.35, or confirm the InPlacePodVerticalScaling gate is on for the API "
              + "server and every managed kubelet");
    }
    return Result.fail(NAME, "API server " + v.gitVersion() + ": no in-place pod resize before 1.33",
        "upgrade the control plane and managed nodes to Kubernetes >= 1.35");
  }
}
