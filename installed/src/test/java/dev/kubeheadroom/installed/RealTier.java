package dev.kubeheadroom.installed;

/**
 * What the real-server classes ({@link RealSplitModeTest}, {@link RealAllInOneModeTest}) share.
 * They share one kube-apiserver (one per JVM), so they take turns: Headroom's HeadroomConfig is a
 * cluster singleton and every release watches every managed namespace, so two releases on one
 * cluster at once would manage each other's pods. Each class has namespaces of its own: without
 * the namespace controller a deleted namespace never goes away, so none is reused.
 */
final class RealTier {
  /** The JUnit resource the real-server classes lock, so that one runs at a time. */
  static final String SERVER_LOCK = "real-kube-apiserver";

  private RealTier() {}

  static String tenantNamespace(String mode) {
    return InstalledTier.NS + "-" + mode;
  }

  static String releaseNamespace(String mode) {
    return Installation.NAMESPACE + "-" + mode;
  }

  static String runName(String mode) {
    return "real-" + mode;
  }
}
