package dev.kubeheadroom.ops;

/** Unusable TLS material; the message is one line and names the file at fault. */
public final class TlsMaterialException extends RuntimeException {
  public TlsMaterialException(String message) {
    super(message);
  }
}
