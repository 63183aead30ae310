package dev.kubeheadroom.installed;

import java.util.Map;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * {@link AllInOneModeTest}'s exit criteria against a real kube-apiserver (the JVM's shared one): the
 * chart applied as {@code helm install} would, every stage as its ServiceAccount with a token the
 * server issued, the server calling the webhook over TLS, the grants from its audit log. The
 * fault rows stay on the double ({@link AllInOneModeTest}), which injects them.
 */
@ResourceLock(RealTier.SERVER_LOCK)
class RealAllInOneModeTest extends InstalledTier {
  @Override
  Map<String, Object> modeValues() {
    return Map.of("allInOne.enabled", true);
  }

  @Override
  String mode() {
    return "all-in-one";
  }

  @Override
  Cluster startCluster() {
    return Cluster.real();
  }

  @Override
  String ns() {
    return RealTier.tenantNamespace(mode());
  }

  @Override
  String releaseNamespace() {
    return RealTier.releaseNamespace(mode());
  }

  @Override
  String runName() {
    return RealTier.runName(mode());
  }
}
