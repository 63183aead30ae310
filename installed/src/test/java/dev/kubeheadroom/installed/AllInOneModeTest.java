package dev.kubeheadroom.installed;

import java.util.Map;

/** The chart with {@code allInOne.enabled=true}: every stage in one {@code headroom run} process. */
class AllInOneModeTest extends InstalledTier {
  @Override
  Map<String, Object> modeValues() {
    return Map.of("allInOne.enabled", true);
  }

  @Override
  String mode() {
    return "all-in-one";
  }
}
