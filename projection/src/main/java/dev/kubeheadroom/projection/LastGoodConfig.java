package dev.kubeheadroom.projection;

import dev.kubeheadroom.schemas.ClusterConfig;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.Optional;

/**
 * The config in force, and why the newest HeadroomConfig was refused if it was (docs/design/config.md: "the
 * last good config stays in force"). Immutable: each offer returns the next state.
 *
 * @param config the config in force: the last accepted one, or the defaults
 * @param refusal the one-line reason the last offered object was refused; null when it was accepted
 */
public record LastGoodConfig(ClusterConfig config, String refusal) {

  /** No HeadroomConfig object yet: the defaults, which are dry-run. */
  public static final LastGoodConfig INITIAL = new LastGoodConfig(ClusterConfig.DEFAULTS, null);

  public LastGoodConfig {
    if (config == null) {
      throw new IllegalArgumentException("config is required");
    }
  }

  /** A new or changed object: in force if valid, else the current config stays with the reason. */
  public LastGoodConfig offer(GenericKubernetesResource object) {
    try {
      return new LastGoodConfig(ConfigProjection.project(object), null);
    } catch (ConfigException e) {
      return new LastGoodConfig(config, e.getMessage());
    }
  }

  /** The object was deleted: back to the defaults (dry-run), as with no object at all. */
  public LastGoodConfig deleted() {
    return INITIAL;
  }

  public boolean refused() {
    return refusal != null;
  }

  public Optional<String> lastRefusal() {
    return Optional.ofNullable(refusal);
  }
}
