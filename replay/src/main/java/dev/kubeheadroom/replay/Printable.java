package dev.kubeheadroom.replay;

/**
 * Text from a log or a cluster made safe for a terminal: a name with a newline, a tab or a
 * bidirectional override (U+202E) would break a table's rows or make it lie about what it shows.
 * Such characters are written as escapes ({@code \n}, {@code \t}, {@code \u202e}), as kubectl
 * does; every other character, and so every name Kubernetes validates, is unchanged.
 */
public final class Printable {
  private Printable() {}

  public static String escape(String text) {
    if (text == null) {
      return null;
    }
    int i = 0;
    while (i < text.length() && !unsafe(text.charAt(i))) {
      i++;
    }
    if (i == text.length()) {
      return text; // the usual case: nothing to escape, no copy
    }
    StringBuilder out = new StringBuilder(text.length() + 8).append(text, 0, i);
    for (; i < text.length(); i++) {
      char c = text.charAt(i);
      if (!unsafe(c)) {
        out.append(c);
      } else if (c == '\n') {
        out.append("\\n");
      } else if (c == '\t') {
        out.append("\\t");
      } else if (c == '\r') {
        out.append("\\r");
      } else {
        out.append(String.format("\\u%04x", (int) c));
      }
    }
    return out.toString();
  }

  /** Controls, format characters (bidi overrides, zero-width) and line or paragraph separators. */
  private static boolean unsafe(char c) {
    if (c < 0x20 || c == 0x7f) {
      return true;
    }
    if (c < 0x80) {
      return false;
    }
    int type = Character.getType(c);
    return type == Character.CONTROL || type == Character.FORMAT || type == Character.LINE_SEPARATOR
        || type == Character.PARAGRAPH_SEPARATOR;
  }
}
