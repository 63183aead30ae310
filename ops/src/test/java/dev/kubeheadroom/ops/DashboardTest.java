package dev.kubeheadroom.ops;

import static dev.kubeheadroom.ops.Fixtures.change;
import static dev.kubeheadroom.ops.Fixtures.decision;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kubeheadroom.schemas.ResizeStatus;
import dev.kubeheadroom.testkit.Promtool;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.nio.file.Files;
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
import org.junit.jupiter.api.io.TempDir;

/** dashboards/headroom.json queries only what HeadroomMetrics really exports, and all of it. */
class DashboardTest {
  private static final Path DASHBOARD = Path.of("..", "dashboards", "headroom.json");
  private static final Pattern HEADROOM_METRIC = Pattern.compile("\\bheadroom_[a-zA-Z0-9_]+");
  /** kube-state-metrics' and cAdvisor's series for one pod, as a default cluster monitoring install scrapes them. */
  private static final Path DEFAULT_INSTALL = Path.of("src", "test", "resources", "default-install-scrape.prom");
  /** A metric name in a query: followed by a selector or ending a label_values' first argument. */
  private static final Pattern METRIC = Pattern.compile("\\b[a-z][a-z0-9_]*_[a-z0-9_]+(?=\\{)");

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
    JsonNode money = moneyGraph();
    JsonNode throttled = target(money, "container_cpu_cfs_throttled_periods_total");
    assertThat(throttled.path("expr").asText()).contains("rate(").contains("[5m]")
        .contains("container_cpu_cfs_periods_total");
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

  @Test
  void theLimitAndThrottlingDrawFromWhatADefaultInstallScrapes() {
    // given what kube-state-metrics and cAdvisor export, and Headroom with no per-pod series
    Scrape cluster = Scrape.parse(read(DEFAULT_INSTALL));
    Scrape headroom = scrapeOf(PodSeries.OFF);
    JsonNode money = moneyGraph();
    List<String> needed = new ArrayList<>();
    needed.add(target(money, "kube_pod_container_resource_limits").path("expr").asText());
    needed.add(target(money, "container_cpu_cfs_throttled_periods_total").path("expr").asText());
    dashboard.path("templating").path("list").forEach(v -> {
      if (List.of("namespace", "pod").contains(v.path("name").asText())) {
        needed.add(v.path("definition").asText());
      }
    });
    // then the limit, the throttling and the pod pickers name only series both scrapes hold
    assertThat(needed).allSatisfy(query -> {
      Matcher m = METRIC.matcher(query);
      while (m.find()) {
        String name = m.group();
        assertThat(cluster.has(name) || headroom.has(name)).as("%s in %s is not in a default install", name, query)
            .isTrue();
      }
    });
  }

  @Test
  void onADefaultInstallTheLimitIsTheContainersSumAndThrottlingTheShareOfPeriods(@TempDir Path dir)
      throws Exception {
    Promtool promtool = Promtool.require();
    JsonNode money = moneyGraph();
    // Headroom's per-pod series are on here too: its limit line then yields to kube-state-metrics'
    String series = inputSeries(Scrape.parse(read(DEFAULT_INSTALL)))
        + "      - series: 'headroom_pod_applied_limit_cores{namespace=\"shop\", pod=\"web-1\"}'\n"
        + "        values: '3.5x10'\n";
    String test = "rule_files: []\nevaluation_interval: 1m\ntests:\n  - interval: 1m\n    input_series:\n" + series
        + "    promql_expr_test:\n"
        + expect(target(money, "kube_pod_container_resource_limits"), "3.5")
        + expect(target(money, "container_cpu_cfs_throttled_periods_total"), "0.2")
        + expect(target(money, "headroom_pod_applied_limit_cores"), null);
    Files.writeString(dir.resolve("money.yaml"), test);
    Promtool.Result result = promtool.run(dir, null, "test", "rules", "money.yaml");
    assertThat(result.ok()).as(result.output() + "\n" + test).isTrue();
  }

  /** One promtool expression test: the target's query for every pod, at 10 minutes, for web-1. */
  private static String expect(JsonNode target, String value) {
    String expr = target.path("expr").asText().replace("$namespace", ".*").replace("$pod", ".*");
    return "      - expr: '" + expr.replace("'", "''") + "'\n        eval_time: 10m\n        exp_samples:"
        + (value == null ? " []\n" : "\n          - labels: '{namespace=\"shop\", pod=\"web-1\"}'\n            value: "
            + value + "\n");
  }

  /** The scrape as promtool input: a counter grows by its value each minute, a gauge holds it. */
  private static String inputSeries(Scrape scrape) {
    StringBuilder s = new StringBuilder();
    for (Scrape.Sample sample : scrape.samples()) {
      String labels = sample.labels().entrySet().stream().map(e -> e.getKey() + "=\"" + e.getValue() + "\"")
          .collect(Collectors.joining(", "));
      String value = sample.value() == Math.rint(sample.value()) ? Long.toString((long) sample.value())
          : Double.toString(sample.value());
      s.append("      - series: '").append(sample.name()).append('{').append(labels).append("}'\n        values: '")
          .append("counter".equals(scrape.types().get(sample.name())) ? "0+" + value + "x10" : value + "x10")
          .append("'\n");
    }
    return s.toString();
  }

  private JsonNode moneyGraph() {
    return panels().stream()
        .filter(p -> p.path("targets").toString().contains("kube_pod_container_resource_limits")
            && p.path("targets").toString().contains("container_cpu_cfs_throttled_periods_total"))
        .findFirst().orElseThrow(() -> new AssertionError("no money graph panel"));
  }

  /** The panel's first target whose query names {@code metric}. */
  private static JsonNode target(JsonNode panel, String metric) {
    return panel.path("targets").findParents("expr").stream()
        .filter(t -> t.path("expr").asText().contains(metric)).findFirst()
        .orElseThrow(() -> new AssertionError("no target queries " + metric));
  }

  private Scrape scrapeWithEverything() {
    return scrapeOf(PodSeries.upTo(1));
  }

  /** Every Headroom metric registered and touched once, with {@code podSeries}. */
  private Scrape scrapeOf(PodSeries podSeries) {
    PrometheusMeterRegistry registry = HeadroomMetrics.newPrometheusRegistry();
    HeadroomMetrics metrics = new HeadroomMetrics(registry, podSeries);
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

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new AssertionError("cannot read " + file.toAbsolutePath(), e);
    }
  }

  private static JsonNode read() {
    try {
      return new ObjectMapper().readTree(DASHBOARD.toFile());
    } catch (IOException e) {
      throw new AssertionError("cannot read " + DASHBOARD.toAbsolutePath(), e);
    }
  }
}
