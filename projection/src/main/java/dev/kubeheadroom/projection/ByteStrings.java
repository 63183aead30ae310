package dev.kubeheadroom.projection;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The strings a watch log repeats (namespaces, node names, phases, label keys, quantities), one
 * {@code String} per spelling instead of one per occurrence: a direct-mapped table from ASCII
 * bytes to the string last made from them. A miss replaces the slot's string. A string shorter
 * than 16 bytes (most of them) is keyed by its two 8-byte words, read whole (the array must have
 * 16 bytes after it, as {@link JsonStrings} needs); a longer one by its bytes. Not thread-safe
 * (one per reader).
 */
final class ByteStrings {
  private static final int SHORT = 16;

  private final int mask;
  private final String[] shortStrings;
  /** Each short slot's words and length. */
  private final long[] lows;
  private final long[] highs;
  private final int[] lengths;
  private final String[] longStrings;
  /** Each long slot's bytes and their hash. */
  private final byte[][] keys;
  private final int[] hashes;

  /** @param size a power of two */
  ByteStrings(int size) {
    if (Integer.bitCount(size) != 1) {
      throw new IllegalArgumentException("size must be a power of two: " + size);
    }
    mask = size - 1;
    shortStrings = new String[size];
    lows = new long[size];
    highs = new long[size];
    lengths = new int[size];
    longStrings = new String[size];
    keys = new byte[size][];
    hashes = new int[size];
  }

  /** The string of the ASCII bytes {@code [from, to)} of {@code b}. */
  String get(byte[] b, int from, int to) {
    int n = to - from;
    if (n >= SHORT) {
      return getLong(b, from, to);
    }
    long low = JsonStrings.first(JsonStrings.word(b, from), n);
    long high = n > 8 ? JsonStrings.first(JsonStrings.word(b, from + 8), n - 8) : 0;
    long h = (low * 0x9E3779B97F4A7C15L + high) * 0xC2B2AE3D27D4EB4FL + n;
    int slot = (int) (h >>> 32) & mask;
    String s = shortStrings[slot];
    if (s != null && lows[slot] == low && highs[slot] == high && lengths[slot] == n) {
      return s;
    }
    s = new String(b, from, n, StandardCharsets.ISO_8859_1);
    shortStrings[slot] = s;
    lows[slot] = low;
    highs[slot] = high;
    lengths[slot] = n;
    return s;
  }

  private String getLong(byte[] b, int from, int to) {
    int hash = 0;
    for (int i = from; i < to; i++) {
      hash = 31 * hash + b[i];
    }
    int slot = (hash ^ (hash >>> 15)) & mask;
    byte[] key = keys[slot];
    if (key != null && hashes[slot] == hash && Arrays.equals(key, 0, key.length, b, from, to)) {
      return longStrings[slot];
    }
    String s = new String(b, from, to - from, StandardCharsets.ISO_8859_1);
    longStrings[slot] = s;
    keys[slot] = Arrays.copyOfRange(b, from, to);
    hashes[slot] = hash;
    return s;
  }
}
