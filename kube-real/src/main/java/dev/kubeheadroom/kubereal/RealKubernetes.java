package dev.kubeheadroom.kubereal;

/**
 * One real control plane per test JVM, started on first use and stopped at JVM exit: starting
 * one costs seconds, so the test classes of a module share it, as they share the Kafka broker.
 * Tests must not assume it is empty: use namespaces of their own.
 */
public final class RealKubernetes {
  private static RealControlPlane shared;
  private static RuntimeException failed;

  private RealKubernetes() {}

  /**
   * The JVM's control plane. Skips the calling test (one line saying how to get the binaries)
   * where they are missing, fails where {@code CI=true}; a start that failed is not retried.
   */
  public static synchronized RealControlPlane shared() {
    ControlPlaneBinaries binaries = ControlPlaneBinaries.locate().requireOrSkip();
    if (failed != null) {
      throw failed;
    }
    if (shared == null) {
      try {
        shared = RealControlPlane.start(binaries);
      } catch (RuntimeException e) {
        failed = e;
        throw e;
      }
      RealControlPlane started = shared;
      Runtime.getRuntime().addShutdownHook(new Thread(started::close, "kube-real-stop"));
    }
    return shared;
  }
}
