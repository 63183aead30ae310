package dev.kubeheadroom.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The SVG elements of a page as the browser serialized its DOM: each start tag that carries a
 * class, as its attributes ({@code tag} holds the element's name). Enough for the pages' own
 * markup, which writes every attribute quoted; no HTML parser on the test path.
 */
final class PageElements {
  private static final Pattern TAG = Pattern.compile("<([a-z]+)(\\s[^>]*?\\bclass=\"[^\"]*\"[^>]*)>");
  private static final Pattern ATTRIBUTE = Pattern.compile("([a-z][a-z0-9-]*)=\"([^\"]*)\"");

  private PageElements() {}

  static List<Map<String, String>> of(String dom) {
    List<Map<String, String>> elements = new ArrayList<>();
    Matcher tag = TAG.matcher(dom);
    while (tag.find()) {
      Map<String, String> attributes = new LinkedHashMap<>();
      attributes.put("tag", tag.group(1));
      Matcher a = ATTRIBUTE.matcher(tag.group(2));
      while (a.find()) {
        attributes.put(a.group(1), unescape(a.group(2)));
      }
      elements.add(attributes);
    }
    return elements;
  }

  /** The drawn elements of class {@code cssClass}: those carrying data (a legend's swatch carries none). */
  static List<Map<String, String>> withClass(List<Map<String, String>> elements, String cssClass) {
    return elements.stream().filter(e -> cssClass.equals(e.get("class")))
        .filter(e -> e.keySet().stream().anyMatch(k -> k.startsWith("data-"))).toList();
  }

  private static String unescape(String value) {
    return value.replace("&quot;", "\"").replace("&lt;", "<").replace("&gt;", ">").replace("&#39;", "'")
        .replace("&amp;", "&");
  }
}
