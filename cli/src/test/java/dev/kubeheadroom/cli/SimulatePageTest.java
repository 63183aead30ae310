package dev.kubeheadroom.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kubeheadroom.testkit.Chromium;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code simulate -o html} opened in headless Chromium: the bars the browser built carry the run's
 * numbers as {@code simulate -o json} gives them; the page is the same bytes for the same log.
 */
class SimulatePageTest {
  @TempDir Path tmp;

  @Test
  void thePageTheBrowserBuiltCountsWhatTheJsonReports() throws Exception {
    Path log = tmp.resolve("day.jsonl");
    Files.writeString(log, ClusterDay.log(7));
    CliRun html = CliRun.run("simulate", "--watch-log", log.toString(), "-o", "html");
    assertThat(html.exitCode()).as(html.stderr()).isZero();
    assertThat(CliRun.run("simulate", "--watch-log", log.toString(), "-o", "html").stdout())
        .as("same log, same bytes").isEqualTo(html.stdout());
    assertThat(html.stdout()).doesNotContain("<script", "http://", "https://").contains("<svg");
    JsonNode json = new ObjectMapper().readTree(CliRun.run("simulate", "--watch-log", log.toString(), "-o", "json")
        .stdout());
    Path page = tmp.resolve("simulate.html");
    Files.writeString(page, html.stdout());

    Chromium chromium = Chromium.require();
    List<Map<String, String>> dom = PageElements.of(chromium.dumpDom(page));
    assertThat(sum(dom, "bar-decisions")).isEqualTo(json.get("summary").get("decisions").asInt()).isPositive();
    // one bar per factor bucket; together they count every node, each in its bucket
    assertThat(sum(dom, "bar-factor")).isEqualTo(json.get("nodes").size());
    for (JsonNode node : json.get("nodes")) {
      double factor = node.get("factor").asDouble();
      assertThat(PageElements.withClass(dom, "bar-factor")).anySatisfy(bar -> {
        String[] range = bar.get("data-label").split(" – ");
        assertThat(factor).isBetween(Double.parseDouble(range[0]), Double.parseDouble(range[1]));
      });
    }
    assertThat(PageElements.withClass(dom, "bar-node")).isNotEmpty()
        .allSatisfy(bar -> assertThat(bar.get("data-label")).startsWith("node-"));
    Path png = chromium.screenshot(page, Path.of("target", "screenshots", "simulate.png"), 1000, 760);
    assertThat(Files.size(png)).isGreaterThan(10_000);
  }

  private static int sum(List<Map<String, String>> dom, String cssClass) {
    return PageElements.withClass(dom, cssClass).stream().mapToInt(e -> Integer.parseInt(e.get("data-count"))).sum();
  }
}
