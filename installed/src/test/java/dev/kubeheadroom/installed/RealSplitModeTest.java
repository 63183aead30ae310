package dev.kubeheadroom.installed;

import java.util.Map;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * {@link SplitModeTest}'s exit criteria against a real kube-apiserver (the JVM's shared one): the
 * chart applied as {@code helm install} would, every stage as its ServiceAccount with a token the
 * server issued, the server calling the webhook over TLS, the grants from its audit log. The
 * fault rows stay on the double ({@link SplitModeTest}), which injects them.
 */
@ResourceLock(RealTier.SERVER_LOCK)
class RealSplitModeTest extends RealTier {
  @Override
  Map<String, Object> modeValues() {
    return Map.of();
  }

  @Override
  String mode() {
    return "split";
  }
}
