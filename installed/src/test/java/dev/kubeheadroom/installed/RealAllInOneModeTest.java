package dev.kubeheadroom.installed;

import java.util.Map;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * {@link AllInOneModeTest}'s exit criteria against a real kube-apiserver (the JVM's shared one): the
 * chart applied as {@code helm install} would, every stage as its ServiceAccount with a token the
 * server issued, the server calling the webhook over TLS, the grants from its audit log. The
 * fault rows stay on the double ({@link AllInOneModeTest}), which injects them.
 */
@ResourceLock(RealTier.SERVER_LOCK)
class RealAllInOneModeTest extends RealTier {
  @Override
  Map<String, Object> modeValues() {
    return Map.of("allInOne.enabled", true);
  }

  @Override
  String mode() {
    return "all-in-one";
  }

  /** See {@link TwoReleases}: the second cluster is a second real kube-apiserver. */
  @Test
  @Order(7)
  void twoReleasesWithTheirOwnTopicPrefixesOnOneBrokerShareNothing() throws Exception {
    try (Cluster other = Cluster.realOwn()) {
      new TwoReleases(broker, runDir(), modeValues(), ns()).check(other);
    }
  }
}
