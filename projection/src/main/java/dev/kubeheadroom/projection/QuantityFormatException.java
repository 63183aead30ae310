package dev.kubeheadroom.projection;

/** A string that is not a valid Kubernetes quantity (or not a valid CPU amount). One-line message. */
public final class QuantityFormatException extends IllegalArgumentException {
  private final String text;

  QuantityFormatException(String text, String problem) {
    super("invalid quantity \"" + text + "\": " + problem);
    this.text = text;
  }

  /** The rejected input, verbatim. */
  public String text() {
    return text;
  }
}
