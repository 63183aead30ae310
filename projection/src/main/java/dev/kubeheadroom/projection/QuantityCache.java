package dev.kubeheadroom.projection;

import io.fabric8.kubernetes.api.model.Quantity;

/**
 * {@code new Quantity(text)} for the few quantity spellings a log repeats ({@code "32"}, {@code
 * "3152m"}, {@code "256Gi"}): the text is split into amount and format once per spelling, and each
 * occurrence gets its own {@code Quantity} (fabric8's are mutable) sharing those two strings. A
 * text {@code Quantity} refuses is refused to the text path, which reports it. Direct-mapped, not
 * thread-safe (one per reader).
 */
final class QuantityCache {
  private final String[] texts;
  private final Quantity[] parsed;
  private final int mask;

  /** @param size a power of two */
  QuantityCache(int size) {
    if (Integer.bitCount(size) != 1) {
      throw new IllegalArgumentException("size must be a power of two: " + size);
    }
    texts = new String[size];
    parsed = new Quantity[size];
    mask = size - 1;
  }

  /** A fresh {@code Quantity} with the amount and format {@code new Quantity(text)} has. */
  Quantity of(String text) {
    int slot = (text.hashCode() ^ (text.hashCode() >>> 15)) & mask;
    Quantity template;
    if (text.equals(texts[slot])) {
      template = parsed[slot];
    } else {
      try {
        template = new Quantity(text);
      } catch (RuntimeException e) {
        throw JsonBytes.REFUSED; // the full path reports it as the line's reason
      }
      texts[slot] = text;
      parsed[slot] = template;
    }
    if (template.getFormat() == null) {
      return new Quantity(text); // the two-argument constructor would leave "" where this has null
    }
    return new Quantity(template.getAmount(), template.getFormat());
  }
}
