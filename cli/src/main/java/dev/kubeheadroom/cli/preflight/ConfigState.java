package dev.kubeheadroom.cli.preflight;

import dev.kubeheadroom.schemas.ClusterConfig;

/**
 * What became of the cluster's HeadroomConfig: the config Headroom would run with, and why. A
 * refused or unreadable object leaves the built-in defaults (dry-run) in force, as the live reader
 * does when there is no last good config (docs/design/config.md).
 */
public sealed interface ConfigState {
  ClusterConfig inForce();

  /** {@code HeadroomConfig/cluster} exists and is valid. */
  record Valid(ClusterConfig config) implements ConfigState {
    @Override
    public ClusterConfig inForce() {
      return config;
    }
  }

  /** No {@code HeadroomConfig/cluster} (or no CRD serving it). */
  record Absent() implements ConfigState {
    @Override
    public ClusterConfig inForce() {
      return ClusterConfig.DEFAULTS;
    }
  }

  /** The object exists but the reader refuses it: {@code field: problem}. */
  record Refused(String field, String reason) implements ConfigState {
    @Override
    public ClusterConfig inForce() {
      return ClusterConfig.DEFAULTS;
    }
  }

  /** It could not be read (403, say). */
  record Unreadable(String reason) implements ConfigState {
    @Override
    public ClusterConfig inForce() {
      return ClusterConfig.DEFAULTS;
    }
  }
}
