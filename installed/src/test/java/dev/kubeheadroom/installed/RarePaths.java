package dev.kubeheadroom.installed;

import java.util.Set;

/**
 * Grants that only paths too rare to exercise cheaply use, each with the path that needs it
 * ({@code "<Kind> <role>: verb group/resource"}, as {@link GrantsReport#unused} names them).
 */
final class RarePaths {
  private RarePaths() {}

  static final Set<String> GRANTS = Set.of();
}
