package dev.kubeheadroom.ops;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ScrapeFormatTest {
  @Test
  void prometheusDefaultAcceptHeaderGetsOpenMetrics() {
    // what Prometheus 2.x sends by default (scrape.go, scrapeAcceptHeader)
    String accept = "application/openmetrics-text;version=1.0.0,application/openmetrics-text;"
        + "version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1";
    assertThat(ScrapeFormat.negotiate(accept)).isEqualTo(ScrapeFormat.OPENMETRICS_100);
  }

  @Test
  void noHeaderCurlAndTextPreferenceGetText() {
    assertThat(ScrapeFormat.negotiate(null)).isEqualTo(ScrapeFormat.TEXT_004);
    assertThat(ScrapeFormat.negotiate("*/*")).isEqualTo(ScrapeFormat.TEXT_004);
    assertThat(ScrapeFormat.negotiate("text/plain;version=0.0.4;q=1,application/openmetrics-text;q=0.5"))
        .isEqualTo(ScrapeFormat.TEXT_004);
    assertThat(ScrapeFormat.negotiate("application/openmetrics-text;q=0")).isEqualTo(ScrapeFormat.TEXT_004);
    assertThat(ScrapeFormat.negotiate("application/openmetrics-text;q=oops")).isEqualTo(ScrapeFormat.TEXT_004);
  }

  @Test
  void gzipOnlyWhenAcceptedWithNonZeroQuality() {
    assertThat(ScrapeFormat.acceptsGzip("gzip")).isTrue();
    assertThat(ScrapeFormat.acceptsGzip("deflate, gzip;q=0.5")).isTrue();
    assertThat(ScrapeFormat.acceptsGzip("*")).isTrue();
    assertThat(ScrapeFormat.acceptsGzip("gzip;q=0")).isFalse();
    assertThat(ScrapeFormat.acceptsGzip("identity")).isFalse();
    assertThat(ScrapeFormat.acceptsGzip(null)).isFalse();
  }
}
