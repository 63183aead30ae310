package dev.kubeheadroom.ops;

import static dev.kubeheadroom.ops.Fixtures.change;
import static dev.kubeheadroom.ops.Fixtures.decision;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kubeheadroom.schemas.ResizeStatus;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** dashboards/headroom.json queries only what HeadroomMetrics really exports, and all of it. */
class DashboardTest {
  private static final Path DASHBOARD = Path.of("..", "dashboards", "headroom.json");
  private static final Pattern HEADROOM_METRIC = Pattern.compile("\\bheadroom_[a-zA-Z0-9_]+");

  private final JsonNode dashboard = read();

  @Test
  void everyHeadroomMetricTheDashboardQueriesIsInARealScrape() {
    // given every Headroom metric registered and touched once
    Scrape scrape = scrapeWithEverything();

    // when the dashboard's queries (panels and variables) are read
    Set<String> queried = headroomNames(queries());

    // then each queried name is a sample name in the scrape
    assertThat(queried).isNotEmpty();
    assertThat(queried).allSatisfy(name -> assertThat(scrape.has(name))
        .as("%s is queried by the dashboard but not in the scrape", name).isTrue());
  }

  @Test
  void everyHeadroomMetricFamilyIsOnTheDashboard() {
    Set<String> families = scrapeWithEverything().types().keySet().stream()
        .filter(name -> name.startsWith("headroom_")).collect(Collectors.toCollection(TreeSet::new));
    Set<String> queried = headroomNames(queries());

    assertThat(families).allSatisfy(family -> assertThat(queried)
        .as("no panel shows %s", family)
        .anyMatch(name -> name.equals(family) || name.startsWith(family + "_")));
  }

  @Test
  void theMoneyGraphOverlaysTheLimitOnThrottlingOnASecondAxis() {
    JsonNode money = panels().stream()
        .filter(p -> p.path("targets").toString().contains("headroom_pod_applied_limit_cores")
            && p.path("targets").toString().contains("container_cpu_cfs_throttled_periods_total"))
        .findFirst().orElseThrow(() -> new AssertionError("no money graph panel"));

    JsonNode throttled = money.path("targets").findParents("expr").stream()
        .filter(t -> t.path("expr").asText().contains("container_cpu_cfs_throttled_periods_total"))
        .findFirst().orElseThrow();
    assertThat(throttled.path("expr").asText()).contains("rate(").contains("[5m]");
    String legend = throttled.path("legendFormat").asText();
    JsonNode override = money.path("fieldConfig").path("overrides").findParents("matcher").stream()
        .filter(o -> legend.matches(o.path("matcher").path("options").asText()))
        .findFirst().orElseThrow(() -> new AssertionError("throttling has no override"));
    assertThat(override.path("properties").toString())
        .contains("\"custom.axisPlacement\"").contains("\"right\"");
  }

  @Test
  void everyPanelUsesTheDatasourceVariableAndTheVariablesExist() {
    assertThat(dashboard.path("schemaVersion").asInt()).isGreaterThanOrEqualTo(39);
    assertThat(panels()).allSatisfy(p ->
        assertThat(p.path("datasource").path("uid").asText()).isEqualTo("${datasource}"));
    assertThat(dashboard.path("templating").path("list").findValuesAsText("name"))
        .contains("datasource", "node", "namespace", "pod");
  }

  private Scrape scrapeWithEverything() {
    PrometheusMeterRegistry registry = HeadroomMetrics.newPrometheusRegistry();
    HeadroomMetrics metrics = new HeadroomMetrics(registry, PodSeries.upTo(1));
    metrics.recordDecision(decision("node-a", 8_000, 2.0, 3, change("team-a", "web-1", 3_000)));
    metrics.podApplied("team-a", "web-1", 3_000);
    metrics.kubeletResizeStatus("team-a", "web-1", ResizeStatus.DEFERRED);
    metrics.reconcileTimer().record(Duration.ofMillis(5));
    metrics.deadLetter("headroom.pods");
    return Scrape.parse(registry.scrape());
  }

  private List<JsonNode> panels() {
    List<JsonNode> panels = new ArrayList<>();
    for (JsonNode panel : dashboard.path("panels")) {
      if (!panel.path("type").asText().equals("row")) {
        panels.add(panel);
      }
      panel.path("panels").forEach(panels::add); // panels inside collapsed rows
    }
    return panels;
  }

  /** Every panel target's expr and every variable's query. */
  private List<String> queries() {
    List<String> queries = new ArrayList<>();
    panels().forEach(p -> p.path("targets").forEach(t -> queries.add(t.path("expr").asText())));
    dashboard.path("templating").path("list").forEach(v -> queries.add(v.path("definition").asText()));
    return queries;
  }

  private static Set<String> headroomNames(List<String> queries) {
    Set<String> names = new TreeSet<>();
    for (String query : queries) {
      Matcher m = HEADROOM_METRIC.matcher(query);
      while (m.find()) {
        names.add(m.group());
      }
    }
    return names;
  }

  private static JsonNode read() {
    try {
      return new ObjectMapper().readTree(DASHBOARD.toFile());
    } catch (IOException e) {
      throw new AssertionError("cannot read " + DASHBOARD.toAbsolutePath(), e);
    }
  }
}
