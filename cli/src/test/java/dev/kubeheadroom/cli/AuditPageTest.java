package dev.kubeheadroom.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kubeheadroom.schemas.ClusterConfig;
import dev.kubeheadroom.schemas.HeadroomKeys;
import dev.kubeheadroom.schemas.JsonCodec;
import dev.kubeheadroom.schemas.NamespaceInfo;
import dev.kubeheadroom.schemas.NodeSnapshot;
import dev.kubeheadroom.schemas.OutcomeResult;
import dev.kubeheadroom.schemas.PodRemoved;
import dev.kubeheadroom.schemas.PodSnapshot;
import dev.kubeheadroom.schemas.ResizeOutcome;
import dev.kubeheadroom.schemas.TopicBootstrap;
import dev.kubeheadroom.schemas.TopicLayout;
import dev.kubeheadroom.schemas.Topics;
import dev.kubeheadroom.testkit.Chromium;
import dev.kubeheadroom.testkit.KafkaBroker;
import dev.kubeheadroom.testkit.TestKafka;
import dev.kubeheadroom.testkit.WithKafka;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code audit --pod|--node --from --to}: the limits over a window re-derived from an event log
 * on a real broker; its page opened in headless Chromium shows, point for point, what its JSON
 * says, and each point agrees with {@code audit --at} at that moment.
 */
@WithKafka
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AuditPageTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  /** A neighbour whose name is markup: the page must show it as text. */
  private static final String MARKUP = "web-<b>3</b>";
  @TempDir Path tmp;
  Topics topics;
  String bootstrap;
  Instant t0;

  static PodSnapshot pod(String name, long requestMilli, long limitMilli) {
    return AuditCommandTest.pod(name, requestMilli, limitMilli);
  }

  @BeforeAll
  void recordAnHour(KafkaBroker kafka) throws Exception {
    bootstrap = kafka.bootstrapServers();
    topics = new Topics(TestKafka.uniqueName("page") + ".");
    try (Admin admin = kafka.admin()) {
      TopicBootstrap.ensure(admin, topics, TopicLayout.singleBroker(2), Duration.ofSeconds(30));
    }
    t0 = Instant.now().minus(Duration.ofMinutes(50)).truncatedTo(ChronoUnit.SECONDS);
    try (KafkaProducer<String, byte[]> p = kafka.producer(new StringSerializer(), new ByteArraySerializer())) {
      send(p, topics.config(), HeadroomKeys.CONFIG_NAME, t0, JsonCodec.encode(ClusterConfig.DEFAULTS.withDryRun(false)));
      send(p, topics.namespaces(), "team-a", t0, JsonCodec.encode(new NamespaceInfo("team-a",
          Map.of(HeadroomKeys.MODE_LABEL, HeadroomKeys.MANAGED), 0)));
      send(p, topics.nodes(), "n1", t0, JsonCodec.encode(new NodeSnapshot("n1", 16000, "linux", false, Map.of())));
      // n1: 16 cores, web-1 2 + web-2 6 booked: slack 8, F 2; web-1 → 4, web-2 → 12
      send(p, topics.pods(), "n1", t0, JsonCodec.encode(pod("web-1", 2000, 0)));
      send(p, topics.pods(), "n1", t0, JsonCodec.encode(pod("web-2", 6000, 0)));
      Instant confirmed = t0.plus(Duration.ofMinutes(2));
      send(p, topics.outcomes(), "n1", confirmed, JsonCodec.encode(new ResizeOutcome("n1", "uid-web-1", "team-a",
          "web-1", OutcomeResult.APPLIED, 4000, confirmed, "")));
      send(p, topics.pods(), "n1", confirmed, JsonCodec.encode(pod("web-1", 2000, 4000)));
      send(p, topics.pods(), "n1", confirmed, JsonCodec.encode(pod("web-2", 6000, 12000)));
      // a neighbour books 4 more cores: F 1.33, web-1 → 3, which the kubelet refuses
      Instant arrives = t0.plus(Duration.ofMinutes(10));
      send(p, topics.pods(), "n1", arrives, JsonCodec.encode(pod(MARKUP, 4000, 0)));
      Instant refused = t0.plus(Duration.ofMinutes(11));
      send(p, topics.outcomes(), "n1", refused, JsonCodec.encode(new ResizeOutcome("n1", "uid-web-1", "team-a",
          "web-1", OutcomeResult.INFEASIBLE, 3000, refused, "node <n1> has no room")));
      Instant leaves = t0.plus(Duration.ofMinutes(20));
      send(p, topics.pods(), "n1", leaves, JsonCodec.encode(new PodRemoved("uid-" + MARKUP, "team-a", MARKUP, "n1")));
      p.flush();
    }
  }

  private static void send(KafkaProducer<String, byte[]> p, String topic, String key, Instant at, byte[] value)
      throws Exception {
    p.send(new ProducerRecord<>(topic, null, at.toEpochMilli(), key, value)).get();
  }

  private CliRun cli(String... args) {
    return CliRun.onKafka(bootstrap, topics.prefix(), args);
  }

  private String[] window(String... rest) {
    List<String> args = new ArrayList<>(List.of("audit", "--from", t0.toString(), "--to",
        t0.plus(Duration.ofMinutes(30)).toString(), "--full-replay"));
    args.addAll(List.of(rest));
    return args.toArray(String[]::new);
  }

  @Test
  void thePodPageShowsPointForPointWhatTheJsonSays() throws Exception {
    CliRun json = cli(window("--pod", "team-a/web-1", "-o", "json"));
    assertThat(json.exitCode()).as(json.stderr()).isZero();
    JsonNode t = JSON.readTree(json.stdout());
    JsonNode points = t.get("pods").get(0).get("containers").get(0).get("points");
    assertThat(points.findValuesAsText("limitMilli")).containsExactly("0", "4000");
    // slack 8 with web-2; 4 while web-<b>3</b> is there (its factor moves once web-1's resize is
    // found infeasible); 8 again once it left
    assertThat(t.get("nodes").findValuesAsText("slackMilli")).as(json.stdout())
        .containsExactly("8000", "4000", "4000", "8000");
    // set to 4; shrink to 3 when the neighbour came, refused; tried again when the refusal's backoff ended
    assertThat(t.get("decisions").findValuesAsText("targetMilli")).containsExactly("4000", "3000", "3000");
    assertThat(t.get("outcomes").findValuesAsText("result")).containsExactly("applied", "infeasible");
    assertThat(t.get("neighbours").findValuesAsText("name")).containsExactly("web-2", MARKUP, MARKUP);

    CliRun html = cli(window("--pod", "team-a/web-1", "-o", "html"));
    assertThat(html.exitCode()).as(html.stderr()).isZero();
    assertThat(cli(window("--pod", "team-a/web-1", "-o", "html")).stdout()).as("same log, same bytes")
        .isEqualTo(html.stdout());
    assertThat(html.stdout()).doesNotContain(MARKUP, "<script", "http://", "https://")
        .contains("web-&lt;b&gt;3&lt;/b&gt;", "node &lt;n1&gt; has no room");
    Path page = tmp.resolve("audit-pod.html");
    Files.writeString(page, html.stdout());

    Chromium chromium = Chromium.require();
    String dom = chromium.dumpDom(page);
    assertThat(dom).doesNotContain("<b>");
    List<Map<String, String>> drawn = PageElements.of(dom);
    List<String> limitPoints = PageElements.withClass(drawn, "limit-point").stream()
        .map(e -> e.get("data-at") + " " + e.get("data-limit-milli") + " " + e.get("data-request-milli")).toList();
    List<String> expected = new ArrayList<>();
    points.forEach(p -> expected.add(p.get("at").asText() + " " + p.get("limitMilli") + " " + p.get("requestMilli")));
    assertThat(limitPoints).isEqualTo(expected);
    List<String> slack = new ArrayList<>();
    t.get("nodes").forEach(n -> slack.add(n.get("at").asText() + " " + n.get("slackMilli") + " " + n.get("factor")));
    assertThat(PageElements.withClass(drawn, "slack-point").stream()
        .map(e -> e.get("data-at") + " " + e.get("data-slack-milli") + " " + e.get("data-factor")).toList())
        .isEqualTo(slack);
    List<String> decisions = new ArrayList<>();
    t.get("decisions").forEach(d -> decisions.add(d.get("at").asText() + " " + d.get("targetMilli")));
    assertThat(PageElements.withClass(drawn, "decision").stream()
        .map(e -> e.get("data-at") + " " + e.get("data-target-milli")).toList()).isEqualTo(decisions);
    assertThat(PageElements.withClass(drawn, "outcome-refused")).singleElement()
        .satisfies(e -> assertThat(e.get("data-result")).isEqualTo("infeasible"));
    assertThat(PageElements.withClass(drawn, "arrival")).hasSize(2 * 3); // web-2 and web-<b>3</b>, on 3 charts
    chromium.screenshot(page, Path.of("target", "screenshots", "audit-pod.png"), 1000, 1500);

    // and each point is what audit --at says was in force then
    for (JsonNode p : points) {
      CliRun at = cli("audit", "--at", p.get("at").asText(), "--pod", "team-a/web-1", "-o", "json", "--full-replay");
      JsonNode view = JSON.readTree(at.stdout());
      assertThat(view.has("limitMilli") ? view.get("limitMilli").asLong() : 0).as(at.stdout())
          .isEqualTo(p.get("limitMilli").asLong());
    }
  }

  @Test
  void theTextFormTellsTheSameStoryLineByLine() {
    CliRun text = cli(window("--pod", "team-a/web-1"));
    assertThat(text.exitCode()).as(text.stderr()).isZero();
    assertThat(text.stdout()).startsWith("pod team-a/web-1 from " + t0)
        .containsPattern("(?m)^  \\S+  team-a/web-1 app: limit none, request 2$")
        .containsPattern("(?m)^  \\S+  team-a/web-1 app: limit 4, request 2$")
        .containsPattern("(?m)^  \\S+  decision team-a/web-1: none → 4 \\(set, node factor 2.00\\)$")
        .containsPattern("(?m)^  \\S+  outcome team-a/web-1: infeasible, target 3: node <n1> has no room$")
        .containsPattern("(?m)^  \\S+  team-a/web-<b>3</b> left \\(request 4\\)$");
  }

  @Test
  void theNodePageDrawsEveryPodThatWasThere() throws Exception {
    CliRun html = cli(window("--node", "n1", "-o", "html"));
    assertThat(html.exitCode()).as(html.stderr()).isZero();
    Path page = tmp.resolve("audit-node.html");
    Files.writeString(page, html.stdout());
    Chromium chromium = Chromium.require();
    List<Map<String, String>> drawn = PageElements.of(chromium.dumpDom(page));
    assertThat(PageElements.withClass(drawn, "limit-point").stream().map(e -> e.get("data-pod")).distinct())
        .containsExactly("team-a/web-1", "team-a/web-2", "team-a/" + MARKUP);
    chromium.screenshot(page, Path.of("target", "screenshots", "audit-node.png"), 1000, 2200);
  }

  @Test
  void aWindowNeedsBothEndsInOrderAndASubject() {
    assertThat(cli("audit", "--from", "yesterday", "--to", t0.toString(), "--pod", "team-a/web-1").stderr().strip())
        .isEqualTo("headroom audit: --from yesterday: not an RFC 3339 time (e.g. 2026-03-01T12:00:00Z)");
    assertThat(cli("audit", "--from", t0.toString(), "--pod", "team-a/web-1").stderr().strip())
        .isEqualTo("headroom audit: --from and --to go together: the window to show");
    CliRun backwards = cli("audit", "--from", t0.toString(), "--to", t0.minusSeconds(1).toString(), "--node", "n1");
    assertThat(backwards.exitCode()).isEqualTo(2);
    assertThat(backwards.stderr().lines()).singleElement().asString().contains("is before --from");
    assertThat(cli("audit", "--from", t0.toString(), "--to", t0.plusSeconds(60).toString()).stderr().strip())
        .startsWith("headroom audit: --from/--to draw one pod or one node");
    assertThat(cli(window("--node", "n9")).stderr().strip()).startsWith("headroom audit: node n9 was not known between ");
    assertThat(cli(window("--pod", "team-a/nope")).stderr().strip())
        .startsWith("headroom audit: pod team-a/nope was on no node between ");
    assertThat(cli("audit", "--at", t0.toString(), "--pod", "team-a/web-1", "-o", "html").stderr().strip())
        .startsWith("headroom audit: -o html: audit --at prints table, json or yaml");
  }
}
