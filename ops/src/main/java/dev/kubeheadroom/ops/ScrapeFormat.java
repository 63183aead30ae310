package dev.kubeheadroom.ops;

import java.util.Locale;

/**
 * The two exposition formats {@code /metrics} speaks, chosen from the scraper's {@code Accept}
 * header the way Prometheus content negotiation expects: OpenMetrics 1.0.0 when the scraper
 * prefers it (Prometheus sends {@code application/openmetrics-text;version=1.0.0} first), the
 * text format 0.0.4 otherwise (curl, old scrapers, no header).
 */
public enum ScrapeFormat {
  TEXT_004("text/plain; version=0.0.4; charset=utf-8"),
  OPENMETRICS_100("application/openmetrics-text; version=1.0.0; charset=utf-8");

  private final String contentType;

  ScrapeFormat(String contentType) {
    this.contentType = contentType;
  }

  /** The {@code Content-Type} of the answer (and what Micrometer's scrape is asked for). */
  public String contentType() {
    return contentType;
  }

  /**
   * The format for this {@code Accept} header (null or blank: text): OpenMetrics when its
   * quality is higher than text's, or equal and non-zero (a scraper naming it wants it).
   */
  public static ScrapeFormat negotiate(String accept) {
    if (accept == null || accept.isBlank()) {
      return TEXT_004;
    }
    double openMetrics = 0;
    double text = 0;
    for (String range : accept.split(",")) {
      String[] parts = range.split(";");
      String type = parts[0].trim().toLowerCase(Locale.ROOT);
      double q = quality(parts);
      if (type.equals("application/openmetrics-text")) {
        openMetrics = Math.max(openMetrics, q);
      } else if (type.equals("text/plain") || type.equals("text/*") || type.equals("*/*")) {
        text = Math.max(text, q);
      }
    }
    return openMetrics > 0 && openMetrics >= text ? OPENMETRICS_100 : TEXT_004;
  }

  /** True when {@code Accept-Encoding} allows gzip (listed with a non-zero quality, or {@code *}). */
  public static boolean acceptsGzip(String acceptEncoding) {
    if (acceptEncoding == null) {
      return false;
    }
    for (String coding : acceptEncoding.split(",")) {
      String[] parts = coding.split(";");
      String name = parts[0].trim().toLowerCase(Locale.ROOT);
      if ((name.equals("gzip") || name.equals("*")) && quality(parts) > 0) {
        return true;
      }
    }
    return false;
  }

  private static double quality(String[] parts) {
    for (int i = 1; i < parts.length; i++) {
      String p = parts[i].trim();
      if (p.startsWith("q=")) {
        try {
          return Double.parseDouble(p.substring(2).trim());
        } catch (NumberFormatException e) {
          return 0; // a malformed weight: treat the range as not acceptable
        }
      }
    }
    return 1;
  }
}
