package dev.kubeheadroom.projection;

import java.nio.charset.StandardCharsets;

/**
 * A cursor over one watch line's bytes for the lean binding ({@link ProjectedByteLine}): strict
 * JSON (RFC 8259) in plain ASCII; names compared as bytes, kept values turned into strings, every
 * other value checked against the grammar and skipped. What it does not take (a byte outside ASCII,
 * a control character, a name with an escape, a value of another type than the binding expects,
 * nesting deeper than {@link #MAX_SKIP_DEPTH} or a number longer than {@link JsonNumbers#MAX_LENGTH}, anything
 * that is not JSON) throws {@link #REFUSED}, and the caller reads the line as text, the way it
 * was read before. So everything this class accepts is JSON that Jackson accepts too (its limits
 * are far above these), and a refusal never changes what a line yields.
 *
 * <p>A line must end in a control byte (a line break; the reader keeps a {@code '\n'} after its
 * data) followed by at least 15 more bytes of the array: every scan stops at a control byte, so no
 * scan goes past the line's end, and names and strings are read in whole 8-byte words.
 */
final class JsonBytes {
  /** A line left to the text path. Thrown often enough (every block boundary) to skip the stack trace. */
  static final class Refused extends RuntimeException {
    private Refused() {
      super("line left to the text path", null, false, false);
    }
  }

  static final Refused REFUSED = new Refused();

  static final int MAX_SKIP_DEPTH = 32;

  private byte[] b;
  private int pos;
  private int nameStart;
  private int nameEnd;
  private FieldName fieldName;
  private int valueStart;
  private int valueEnd;
  /** Set by a container's start and cleared by its first {@link #field}/{@link #element}: no comma yet. */
  private boolean first;
  private boolean escaped;

  /** Points the cursor at {@code from} in {@code bytes}. */
  void reset(byte[] bytes, int from) {
    b = bytes;
    pos = from;
  }

  /** Where reading stopped: after the last value read, or where it refused. */
  int pos() {
    return pos;
  }

  /** Skips spaces and tabs: JSON's other whitespace (CR, LF) ends a line here. */
  void ws() {
    byte c;
    while ((c = b[pos]) == ' ' || c == '\t') {
      pos++;
    }
  }

  // ---- objects and arrays

  /** Whether the value here is an object. */
  boolean atObject() {
    return b[pos] == '{';
  }

  /** At a value that must be an object: enters it. */
  void startObject() {
    if (b[pos] != '{') {
      throw REFUSED;
    }
    pos++;
    first = true;
  }

  /**
   * Reads the next field's name and colon and stops at its value; false after the object's end.
   * Names are plain: one with an escape is refused (it may spell a name the binding reads).
   */
  boolean field() {
    ws();
    byte c = b[pos];
    if (first) {
      first = false;
      if (c == '}') {
        pos++;
        return false;
      }
    } else if (c == ',') {
      pos++;
      ws();
      c = b[pos];
    } else if (c == '}') {
      pos++;
      return false;
    } else {
      throw REFUSED;
    }
    if (c != '"') {
      throw REFUSED;
    }
    nameStart = pos + 1;
    // A name the binding reads fits in two words: find its end and the name from them at once.
    long low = JsonStrings.word(b, nameStart);
    long high = 0;
    long stops = JsonStrings.specials(low);
    int n;
    if (stops != 0) {
      n = Long.numberOfTrailingZeros(stops) >>> 3;
    } else {
      high = JsonStrings.word(b, nameStart + 8);
      stops = JsonStrings.specials(high);
      n = stops != 0 ? 8 + (Long.numberOfTrailingZeros(stops) >>> 3) : FieldName.MAX_LENGTH;
    }
    if (n < FieldName.MAX_LENGTH && b[nameStart + n] == '"') {
      nameEnd = nameStart + n;
      fieldName = FieldName.of(JsonStrings.first(low, n), n > 8 ? JsonStrings.first(high, n - 8) : 0, n);
    } else { // longer, or an escape, or no string
      nameEnd = stringEnd(nameStart);
      if (escaped) {
        throw REFUSED;
      }
      fieldName = FieldName.OTHER;
    }
    pos = nameEnd + 1;
    ws();
    if (b[pos] != ':') {
      throw REFUSED;
    }
    pos++;
    ws();
    return true;
  }

  /** The current field's name, if the binding reads it. */
  FieldName fieldName() {
    return fieldName;
  }

  /** The current field's name as a string (a plain name: no escape). */
  String name(ByteStrings cache) {
    return cache.get(b, nameStart, nameEnd);
  }

  /** At a value that must be an array: enters it. */
  void startArray() {
    if (b[pos] != '[') {
      throw REFUSED;
    }
    pos++;
    first = true;
  }

  /** Stops at the next element; false after the array's end. */
  boolean element() {
    ws();
    byte c = b[pos];
    if (first) {
      first = false;
      if (c == ']') {
        pos++;
        return false;
      }
      return true;
    }
    pos++;
    if (c == ',') {
      ws();
      return true;
    }
    if (c == ']') {
      return false;
    }
    throw REFUSED;
  }

  // ---- kept values

  /** The string value here, built fresh. */
  String string() {
    return string(null);
  }

  /** The string value here; without an escape, the one {@code cache} holds for these bytes. */
  String string(ByteStrings cache) {
    return plainString() && cache != null ? cache.get(b, valueStart, valueEnd) : lastString();
  }

  /**
   * Moves past the string value here, whose content is then {@code [valueStart(), valueEnd())} of
   * {@link #bytes()}; whether it had no escape (the bytes are then its text).
   */
  boolean plainString() {
    if (b[pos] != '"') {
      throw REFUSED;
    }
    valueStart = pos + 1;
    valueEnd = stringEnd(valueStart);
    pos = valueEnd + 1;
    return !escaped;
  }

  /** The string {@link #plainString} last moved past, its escapes decoded. */
  String lastString() {
    return escaped ? JsonStrings.unescape(b, valueStart, valueEnd)
        : new String(b, valueStart, valueEnd - valueStart, StandardCharsets.ISO_8859_1);
  }

  byte[] bytes() {
    return b;
  }

  int valueStart() {
    return valueStart;
  }

  int valueEnd() {
    return valueEnd;
  }

  /** An integer that fits a long (Jackson's INT or LONG); a float or a longer integer is refused. */
  long integer() {
    int i = pos;
    boolean negative = b[i] == '-';
    if (negative) {
      i++;
    }
    int start = i;
    long value = 0;
    if (b[i] == '0') {
      i++;
    } else {
      while (b[i] >= '0' && b[i] <= '9') {
        value = value * 10 + (b[i] - '0');
        i++;
      }
    }
    byte c = b[i];
    if (i == start || i - start > 18 || c == '.' || c == 'e' || c == 'E') {
      throw REFUSED;
    }
    pos = i;
    return negative ? -value : value;
  }

  /** {@code true} or {@code false}. */
  Boolean bool() {
    if (literal(TRUE)) {
      return Boolean.TRUE;
    }
    if (literal(FALSE)) {
      return Boolean.FALSE;
    }
    throw REFUSED;
  }

  // ---- skipped values: checked, not kept

  /** Skips the value here, whatever it is, refusing what is not JSON. */
  void skipValue() {
    skipValue(0);
  }

  private void skipValue(int depth) {
    switch (b[pos]) {
      case '"' -> pos = stringEnd(pos + 1) + 1;
      case '{' -> skipObject(depth + 1);
      case '[' -> skipArray(depth + 1);
      case 't' -> literalOrRefuse(TRUE);
      case 'f' -> literalOrRefuse(FALSE);
      case 'n' -> literalOrRefuse(NULL);
      default -> skipNumber();
    }
  }

  private void skipObject(int depth) {
    if (depth > MAX_SKIP_DEPTH) {
      throw REFUSED;
    }
    pos++;
    ws();
    if (b[pos] == '}') {
      pos++;
      return;
    }
    while (true) {
      if (b[pos] != '"') {
        throw REFUSED;
      }
      pos = stringEnd(pos + 1) + 1;
      ws();
      if (b[pos] != ':') {
        throw REFUSED;
      }
      pos++;
      ws();
      skipValue(depth);
      ws();
      byte c = b[pos++];
      if (c == '}') {
        return;
      }
      if (c != ',') {
        throw REFUSED;
      }
      ws();
    }
  }

  private void skipArray(int depth) {
    if (depth > MAX_SKIP_DEPTH) {
      throw REFUSED;
    }
    pos++;
    ws();
    if (b[pos] == ']') {
      pos++;
      return;
    }
    while (true) {
      skipValue(depth);
      ws();
      byte c = b[pos++];
      if (c == ']') {
        return;
      }
      if (c != ',') {
        throw REFUSED;
      }
      ws();
    }
  }

  private void skipNumber() {
    pos = JsonNumbers.end(b, pos);
  }

  private static final byte[] TRUE = {'t', 'r', 'u', 'e'};
  private static final byte[] FALSE = {'f', 'a', 'l', 's', 'e'};
  private static final byte[] NULL = {'n', 'u', 'l', 'l'};

  /** Moves past {@code word} if it is here; byte by byte, so it stops at the line's end. */
  private boolean literal(byte[] word) {
    for (int k = 0; k < word.length; k++) {
      if (b[pos + k] != word[k]) {
        return false;
      }
    }
    pos += word.length;
    return true;
  }

  private void literalOrRefuse(byte[] word) {
    if (!literal(word)) {
      throw REFUSED;
    }
  }

  /** The closing quote of the string whose content starts at {@code i}; notes whether it had an escape. */
  private int stringEnd(int i) {
    int end = JsonStrings.end(b, i);
    escaped = end < 0;
    return end & Integer.MAX_VALUE;
  }
}
