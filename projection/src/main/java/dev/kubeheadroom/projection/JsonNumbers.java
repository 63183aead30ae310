package dev.kubeheadroom.projection;

/**
 * JSON numbers in a line's bytes, for {@link JsonBytes}: checked against the grammar and skipped.
 * A number longer than {@link #MAX_LENGTH} characters is refused ({@link JsonBytes#REFUSED}; Jackson
 * allows 1,000), as is anything that is not a number.
 */
final class JsonNumbers {
  static final int MAX_LENGTH = 100;

  private JsonNumbers() {}

  /**
   * The index after the number at {@code pos}: {@code -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE]
   * [+-]? [0-9]+)?}, as Jackson reads numbers.
   */
  static int end(byte[] b, int pos) {
    int i = pos;
    if (b[i] == '-') {
      i++;
    }
    if (b[i] == '0') {
      i++;
    } else if (digit(b[i])) {
      i = digits(b, i);
    } else {
      throw JsonBytes.REFUSED;
    }
    if (b[i] == '.') {
      if (!digit(b[++i])) {
        throw JsonBytes.REFUSED;
      }
      i = digits(b, i);
    }
    if (b[i] == 'e' || b[i] == 'E') {
      i++;
      if (b[i] == '+' || b[i] == '-') {
        i++;
      }
      if (!digit(b[i])) {
        throw JsonBytes.REFUSED;
      }
      i = digits(b, i);
    }
    if (i - pos > MAX_LENGTH) {
      throw JsonBytes.REFUSED;
    }
    return i;
  }

  private static int digits(byte[] b, int i) {
    while (digit(b[i])) {
      i++;
    }
    return i;
  }

  private static boolean digit(byte c) {
    return c >= '0' && c <= '9';
  }
}
