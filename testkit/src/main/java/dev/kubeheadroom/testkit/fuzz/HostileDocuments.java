package dev.kubeheadroom.testkit.fuzz;

import java.nio.charset.StandardCharsets;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/**
 * jqwik generators of hostile documents: a structurally valid seed (a watch log, a config, a
 * policy request, an admission review, a HeadroomConfig) with a few mutations of the kinds an
 * adversarial tester used: a JSON value swapped for another type or null, an element nulled in a
 * list, a time out of range, a byte that is not UTF-8, a control character, a huge or negative
 * number, a cut line, a YAML alias.
 */
public final class HostileDocuments {
  private HostileDocuments() {}

  /** JSON values that replace a quoted string or a number of the seed. */
  private static final List<String> VALUES = List.of("null", "[]", "{}", "[null]", "\"\"", "0", "-1", "1e400",
      "9223372036854775808", "\"9000000000000000\"", "\"1.2.3\"", "\"-5m\"", "true", "\"0001-01-01T00:00:00Z\"",
      "\"1969-12-31T23:59:59Z\"", "\"+999999999-12-31T23:59:59Z\"", "\"a\\nb\\u202e\\t\"", "{\"a\":[null]}",
      "[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]", "\"\\ud800\"");

  /** One mutation of a text, chosen by {@code kind} at {@code where} (a fraction of its length). */
  public static byte[] mutate(byte[] seed, int kind, double where, int pick) {
    String text = new String(seed, StandardCharsets.UTF_8);
    int at = Math.min(text.length(), (int) (where * text.length()));
    switch (kind) {
      case 0 -> { // a quoted value or a number from here on becomes another JSON value
        int q = text.indexOf(':', at);
        if (q < 0) {
          return seed;
        }
        int end = valueEnd(text, q + 1);
        return (text.substring(0, q + 1) + VALUES.get(pick % VALUES.size()) + text.substring(end))
            .getBytes(StandardCharsets.UTF_8);
      }
      case 1 -> { // an array's first element nulled
        int b = text.indexOf('[', at);
        return b < 0 ? seed : (text.substring(0, b + 1) + "null," + text.substring(b + 1)).getBytes(StandardCharsets.UTF_8);
      }
      case 2 -> { // one byte that is not UTF-8
        byte[] out = seed.clone();
        if (out.length > 0) {
          out[Math.min(out.length - 1, (int) (where * out.length))] = (byte) (0x80 | pick);
        }
        return out;
      }
      case 3 -> { // the text cut here
        return text.substring(0, at).getBytes(StandardCharsets.UTF_8);
      }
      case 4 -> { // a control or bidi character inserted
        String c = List.of("\u0000", "\u202e", "\t", "\u0007", "\u2028").get(pick % 5);
        return (text.substring(0, at) + c + text.substring(at)).getBytes(StandardCharsets.UTF_8);
      }
      case 5 -> { // a line doubled (the same object twice)
        int s = text.lastIndexOf('\n', Math.max(0, at - 1)) + 1;
        int e = text.indexOf('\n', at);
        String line = e < 0 ? text.substring(s) : text.substring(s, e + 1);
        return (text.substring(0, s) + line + (line.endsWith("\n") ? "" : "\n") + text.substring(s)).getBytes(StandardCharsets.UTF_8);
      }
      default -> { // a digit changed
        for (int i = at; i < text.length(); i++) {
          if (Character.isDigit(text.charAt(i))) {
            return (text.substring(0, i) + (char) ('0' + pick % 10) + text.substring(i + 1)).getBytes(StandardCharsets.UTF_8);
          }
        }
        return seed;
      }
    }
  }

  /** The end of the JSON value starting at {@code from} (a string, a number or a literal; containers are left whole). */
  private static int valueEnd(String text, int from) {
    int i = from;
    while (i < text.length() && text.charAt(i) == ' ') {
      i++;
    }
    if (i < text.length() && text.charAt(i) == '"') {
      for (int j = i + 1; j < text.length(); j++) {
        if (text.charAt(j) == '\\') {
          j++;
        } else if (text.charAt(j) == '"') {
          return j + 1;
        }
      }
      return text.length();
    }
    if (i < text.length() && (text.charAt(i) == '{' || text.charAt(i) == '[')) {
      int depth = 0;
      for (int j = i; j < text.length(); j++) {
        char c = text.charAt(j);
        depth += c == '{' || c == '[' ? 1 : c == '}' || c == ']' ? -1 : 0;
        if (depth == 0) {
          return j + 1;
        }
      }
      return text.length();
    }
    while (i < text.length() && ",}]\n".indexOf(text.charAt(i)) < 0) {
      i++;
    }
    return i;
  }

  /** A seed with one to four mutations. */
  public static Arbitrary<byte[]> mutated(List<byte[]> seeds) {
    Arbitrary<int[]> mutation = Combinators.combine(Arbitraries.integers().between(0, 6),
        Arbitraries.integers().between(0, 999), Arbitraries.integers().between(0, 127))
        .as((kind, where, pick) -> new int[] {kind, where, pick});
    return Combinators.combine(Arbitraries.of(seeds), mutation.list().ofMinSize(1).ofMaxSize(4))
        .as((seed, ms) -> {
          byte[] out = seed;
          for (int[] m : ms) {
            out = mutate(out, m[0], m[1] / 1000.0, m[2]);
          }
          return out;
        });
  }
}
