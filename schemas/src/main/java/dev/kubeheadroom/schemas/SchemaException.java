package dev.kubeheadroom.schemas;

/** A record that cannot be read: bad JSON, a missing or ill-typed field, or an unknown variant. */
public final class SchemaException extends RuntimeException {
  public SchemaException(String message, Throwable cause) {
    super(message, cause);
  }

  public SchemaException(String message) {
    super(message);
  }
}
