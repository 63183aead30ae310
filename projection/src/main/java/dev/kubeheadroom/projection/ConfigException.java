package dev.kubeheadroom.projection;

/**
 * A HeadroomConfig that is refused. The message is one line, {@code <field>: <problem>}, e.g.
 * {@code spec.maxMultiplier: must be at most 100, got "150"}.
 */
public final class ConfigException extends RuntimeException {
  private final String field;
  private final String problem;

  public ConfigException(String field, String problem) {
    super(field + ": " + problem);
    this.field = field;
    this.problem = problem;
  }

  /** The path of the offending field, {@code spec.deadband.grow}. */
  public String field() {
    return field;
  }

  public String problem() {
    return problem;
  }
}
