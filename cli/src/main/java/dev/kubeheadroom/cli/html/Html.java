package dev.kubeheadroom.cli.html;

import dev.kubeheadroom.replay.Printable;
import java.time.Instant;
import java.util.Locale;

/**
 * The pieces every page is made of: escaping (names come from a cluster or a log: a pod name is
 * user input), and the page around the pictures. A page is self-contained: inline CSS and SVG, no
 * script, no fetch; the same input gives the same bytes.
 */
public final class Html {
  private Html() {}

  private static final String STYLE = """
      body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#1b1f24;background:#fff}
      h1{font-size:20px;margin:0 0 4px}h2{font-size:16px;margin:24px 0 4px}h3{font-size:14px;margin:16px 0 2px}
      .note{color:#57606a}svg{display:block;margin:4px 0}
      svg text{font:11px system-ui,sans-serif;fill:#57606a}
      .axis{stroke:#8c959f}.grid{stroke:#eaeef2}
      .limit{fill:none;stroke:#0969da;stroke-width:2}.request{fill:none;stroke:#8c959f;stroke-dasharray:5 4}
      .slack{fill:none;stroke:#1a7f37;stroke-width:2}.factor{fill:none;stroke:#8250df;stroke-width:2}
      .limit-point{fill:#0969da}.slack-point{fill:#1a7f37}.factor-point{fill:#8250df}
      .decision{fill:#bf8700}.outcome-applied{fill:#1a7f37}.outcome-refused{fill:#cf222e}
      .arrival{stroke:#1a7f37;stroke-dasharray:2 3}.departure{stroke:#cf222e;stroke-dasharray:2 3}
      .bar-decisions{fill:#bf8700}.bar-patches{fill:#0969da}.bar-factor{fill:#8250df}.bar-node{fill:#0969da}
      table{border-collapse:collapse;margin-top:8px}td,th{padding:2px 10px;text-align:left;border-bottom:1px solid #eaeef2}
      svg.swatch .request{fill:#8c959f}svg.swatch .arrival{fill:#1a7f37}svg.swatch .departure{fill:#cf222e}
      .legend span{margin-right:16px}.swatch{display:inline-block;width:12px;height:12px;margin-right:4px;vertical-align:-2px}
      """;

  /** {@code text} for HTML text and attribute values: terminal-unsafe characters as escapes, then {@code &<>"'}. */
  public static String escape(String text) {
    String printable = Printable.escape(text == null ? "" : text);
    StringBuilder out = new StringBuilder(printable.length() + 8);
    for (int i = 0; i < printable.length(); i++) {
      char c = printable.charAt(i);
      switch (c) {
        case '&' -> out.append("&amp;");
        case '<' -> out.append("&lt;");
        case '>' -> out.append("&gt;");
        case '"' -> out.append("&quot;");
        case '\'' -> out.append("&#39;");
        default -> out.append(c);
      }
    }
    return out.toString();
  }

  /** The whole page: {@code title} (text, escaped here) over {@code body} (HTML already escaped). */
  public static String page(String title, String body) {
    return "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
        + "<meta name=\"generator\" content=\"headroom\">\n<title>" + escape(title) + "</title>\n<style>\n"
        + STYLE + "</style></head>\n<body>\n<h1>" + escape(title) + "</h1>\n" + body + "</body></html>\n";
  }

  /** A legend entry: a colour swatch of CSS class {@code cssClass} and its label. */
  public static String legend(String cssClass, String label) {
    return "<span><svg class=\"swatch\" width=\"12\" height=\"12\" style=\"display:inline-block\"><rect class=\""
        + cssClass + "\" width=\"12\" height=\"12\"/></svg>" + escape(label) + "</span>";
  }

  /** A number for people and for attributes alike: no locale, no exponent. */
  public static String number(double value) {
    return String.format(Locale.ROOT, "%.2f", value);
  }

  /** A time as RFC 3339 (UTC), as the JSON output writes it. */
  public static String time(Instant at) {
    return at.toString();
  }
}
