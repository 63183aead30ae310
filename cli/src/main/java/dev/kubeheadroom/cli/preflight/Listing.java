package dev.kubeheadroom.cli.preflight;

import java.util.List;

/**
 * A list read from the API server, or why it could not be read (403 Forbidden, say). A check over
 * an unreadable listing says so instead of passing on nothing.
 *
 * @param items what was read; empty when unreadable
 * @param unreadable why it could not be read, one line; null when it was
 */
public record Listing<T>(List<T> items, String unreadable) {
  public Listing {
    items = items == null ? List.of() : List.copyOf(items);
  }

  public static <T> Listing<T> of(List<T> items) {
    return new Listing<>(items, null);
  }

  public static <T> Listing<T> unreadable(String why) {
    return new Listing<>(List.of(), why);
  }

  public boolean readable() {
    return unreadable == null;
  }
}
