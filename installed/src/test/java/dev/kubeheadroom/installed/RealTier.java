package dev.kubeheadroom.installed;

/**
 * What the real-server classes ({@link RealSplitModeTest}, {@link RealAllInOneModeTest}) share.
 * They share one kube-apiserver (one per JVM), so they take turns: Headroom's HeadroomConfig is a
 * cluster singleton and every release watches every managed namespace, so two releases on one
 * cluster at once would manage each other's pods. Each class has namespaces of its own: without
 * the namespace controller a deleted namespace never goes away, so none is reused.
 */
abstract class RealTier extends InstalledTier {
  /** The JUnit resource the real-server classes lock, so that one runs at a time. */
  static final String SERVER_LOCK = "real-kube-apiserver";

  @Override
  Cluster startCluster() {
    return Cluster.real();
  }

  @Override
  String ns() {
    return InstalledTier.NS + "-" + mode();
  }

  @Override
  String releaseNamespace() {
    return Installation.NAMESPACE + "-" + mode();
  }

  @Override
  String runName() {
    return "real-" + mode();
  }
}
