package dev.kubeheadroom.installed;

import java.util.Map;

/**
 * The chart at its default values (split mode): one Deployment per stage, each stage under its
 * own ServiceAccount; two ingest replicas leader-elected on the Lease.
 */
class SplitModeTest extends InstalledTier {
  @Override
  Map<String, Object> modeValues() {
    return Map.of();
  }

  @Override
  String mode() {
    return "split";
  }
}
