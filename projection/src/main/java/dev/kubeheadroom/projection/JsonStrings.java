package dev.kubeheadroom.projection;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * JSON strings in a line's bytes, for {@link JsonBytes}: where one ends (eight bytes at a time:
 * most of a line's bytes are inside strings), whether its escapes are valid, and its decoded
 * content. A control byte (the line's end among them) or a byte outside ASCII inside a string is
 * refused ({@link JsonBytes#REFUSED}).
 *
 * <p>Words are read whole: the array must have 16 bytes after the end of the line (its line
 * break and 15 more), which the reader's buffer keeps.
 */
final class JsonStrings {
  /** Set in {@link #end}'s result when the string has an escape (indexes never use the sign bit). */
  static final int ESCAPED = Integer.MIN_VALUE;

  /** Eight bytes of a line as one long. */
  private static final VarHandle WORDS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final long ONES = 0x0101010101010101L;
  private static final long HIGHS = 0x8080808080808080L;

  private JsonStrings() {}

  /**
   * The index of the closing quote of the string whose content starts at {@code i} in {@code b},
   * with {@link #ESCAPED} set when the string has an escape; checks the escapes.
   */
  static int end(byte[] b, int i) {
    boolean escaped = false;
    while (true) {
      long stop = specials(word(b, i));
      if (stop == 0) {
        i += 8;
        continue;
      }
      i += Long.numberOfTrailingZeros(stop) >>> 3;
      byte c = b[i];
      if (c == '"') {
        return escaped ? i | ESCAPED : i;
      }
      if (c != '\\') {
        throw JsonBytes.REFUSED;
      }
      escaped = true;
      i = escapeEnd(b, i + 1);
    }
  }

  /**
   * The high bit of each byte of {@code w} (little-endian) that is a quote, a backslash, below
   * 0x20 or above 0x7f, and possibly of bytes after the first such one (a borrow only ever starts
   * at one): so the lowest bit set marks the first byte a string scan must stop at.
   */
  static long specials(long w) {
    long quote = w ^ (ONES * '"');
    long backslash = w ^ (ONES * '\\');
    return ((quote - ONES) & ~quote | (backslash - ONES) & ~backslash | (w - ONES * 0x20) & ~w | w) & HIGHS;
  }

  /** The bytes {@code [i, i + 8)} of {@code b}, the first in the lowest bits. */
  static long word(byte[] b, int i) {
    return (long) WORDS.get(b, i);
  }

  /** The first {@code n} (0 to 8) bytes of {@code w}, the others zero. */
  static long first(long w, int n) {
    return n >= 8 ? w : w & ((1L << (n << 3)) - 1);
  }

  /** After the backslash at {@code i - 1}: the index past the escape, or refused. */
  private static int escapeEnd(byte[] b, int i) {
    switch (b[i]) {
      case '"', '\\', '/', 'b', 'f', 'n', 'r', 't' -> {
        return i + 1;
      }
      case 'u' -> {
        for (int k = 1; k <= 4; k++) {
          if (hex(b[i + k]) < 0) {
            throw JsonBytes.REFUSED;
          }
        }
        return i + 5;
      }
      default -> throw JsonBytes.REFUSED;
    }
  }

  private static int hex(byte c) {
    if (c >= '0' && c <= '9') {
      return c - '0';
    }
    if (c >= 'a' && c <= 'f') {
      return c - 'a' + 10;
    }
    if (c >= 'A' && c <= 'F') {
      return c - 'A' + 10;
    }
    return -1;
  }

  /** The content {@code [start, end)} of a checked string with escapes, decoded as Jackson does. */
  static String unescape(byte[] b, int start, int end) {
    StringBuilder out = new StringBuilder(end - start);
    for (int i = start; i < end; i++) {
      char c = (char) b[i];
      if (c != '\\') {
        out.append(c);
        continue;
      }
      char e = (char) b[++i];
      switch (e) {
        case 'b' -> out.append('\b');
        case 'f' -> out.append('\f');
        case 'n' -> out.append('\n');
        case 'r' -> out.append('\r');
        case 't' -> out.append('\t');
        case 'u' -> {
          out.append((char) (hex(b[i + 1]) << 12 | hex(b[i + 2]) << 8 | hex(b[i + 3]) << 4 | hex(b[i + 4])));
          i += 4;
        }
        default -> out.append(e); // " \ /
      }
    }
    return out.toString();
  }
}
