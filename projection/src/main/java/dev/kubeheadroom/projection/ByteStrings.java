package dev.kubeheadroom.projection;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The strings a watch log repeats (namespaces, node names, phases, label keys, quantities, the
 * line's time), one {@code String} per spelling instead of one per occurrence: a direct-mapped
 * table from ASCII bytes to the string last made from them. A miss replaces the slot's string. Not
 * thread-safe (one per reader).
 */
final class ByteStrings {
  private final String[] strings;
  /** Each slot's string as bytes, and their hash: a hit is checked without touching the string. */
  private final byte[][] keys;
  private final int[] hashes;
  private final int mask;

  /** @param size a power of two */
  ByteStrings(int size) {
    if (Integer.bitCount(size) != 1) {
      throw new IllegalArgumentException("size must be a power of two: " + size);
    }
    strings = new String[size];
    keys = new byte[size][];
    hashes = new int[size];
    mask = size - 1;
  }

  /** The string of the ASCII bytes {@code [from, to)} of {@code b}. */
  String get(byte[] b, int from, int to) {
    int hash = 0;
    for (int i = from; i < to; i++) {
      hash = 31 * hash + b[i];
    }
    int slot = (hash ^ (hash >>> 15)) & mask;
    byte[] key = keys[slot];
    if (key != null && hashes[slot] == hash && same(key, b, from, to)) {
      return strings[slot];
    }
    String s = new String(b, from, to - from, StandardCharsets.ISO_8859_1);
    strings[slot] = s;
    keys[slot] = Arrays.copyOfRange(b, from, to);
    hashes[slot] = hash;
    return s;
  }

  private static boolean same(byte[] key, byte[] b, int from, int to) {
    if (key.length != to - from) {
      return false;
    }
    for (int i = 0; i < key.length; i++) {
      if (key[i] != b[from + i]) {
        return false;
      }
    }
    return true;
  }
}
