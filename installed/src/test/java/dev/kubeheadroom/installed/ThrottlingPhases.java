package dev.kubeheadroom.installed;

import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kubeheadroom.kubereal.BusyLoopPod;
import dev.kubeheadroom.kubereal.CpuCgroup;
import dev.kubeheadroom.kubereal.RealNode;
import dev.kubeheadroom.testkit.PrometheusServer;
import io.fabric8.kubernetes.api.model.Pod;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A busy loop's throttling at the small limit Headroom gives it beside a big neighbour, then at
 * the large one when the neighbour leaves, as three records see it: the container's cgroup
 * ({@code cpu.stat}), the kubelet's cAdvisor scraped by a real Prometheus, and {@code headroom
 * explain --prometheus} reading that Prometheus at the end of the small phase.
 */
final class ThrottlingPhases {
  /** Long enough for several cAdvisor samples (every ~10-15 s) and hundreds of 100 ms CFS periods. */
  static final Duration PHASE = Duration.ofSeconds(90);
  /**
   * explain's usage step: a rate needs two samples in it, and cAdvisor's carry their own
   * timestamps, ~10-15 s apart however often Prometheus scrapes (a 10 s step finds no usage).
   */
  static final Duration STEP = Duration.ofSeconds(30);
  private static final Duration SCRAPE = Duration.ofSeconds(2);
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Cluster cluster;
  private final RealNode node;
  private final String bootstrapServers;
  private final CpuCgroup cgroup;
  private final String ns;
  private final String pod;

  ThrottlingPhases(Cluster cluster, RealNode node, String bootstrapServers, CpuCgroup cgroup, String ns, String pod) {
    this.cluster = cluster;
    this.node = node;
    this.bootstrapServers = bootstrapServers;
    this.cgroup = cgroup;
    this.ns = ns;
    this.pod = pod;
  }

  /** One phase: the cgroup's counters over it, and how much Prometheus' throttled-periods counter rose. */
  record Phase(CpuCgroup.Quota quota, CpuCgroup.Stat cgroup, long prometheusPeriods, long prometheusThrottled) {
    @Override
    public String toString() {
      return "quota %d/%d us: cgroup %d of %d periods throttled (%d ms), %d ms CPU used; Prometheus %d of %d"
          .formatted(quota.quotaMicros(), quota.periodMicros(), cgroup.throttledPeriods(), cgroup.periods(),
              cgroup.throttledMicros() / 1000, cgroup.usageMicros() / 1000, prometheusThrottled, prometheusPeriods);
    }
  }

  record Result(KubeletResizeTrace shrink, Phase small, KubeletResizeTrace grow, Phase large, String explain,
      long explainLimitMilli, double explainThrottledRatio, String explainVerdict) {
    @Override
    public String toString() {
      return "%s%n  at the small limit over %d s: %s%n  explain --prometheus: limit %dm, throttled ratio %.3f, verdict %s%n  %s%n"
          .formatted(shrink, PHASE.toSeconds(), small, explainLimitMilli, explainThrottledRatio, explainVerdict, grow)
          + "  at the large limit over %d s: %s".formatted(PHASE.toSeconds(), large);
    }
  }

  Result run(Path dir) throws Exception {
    Path work = Files.createDirectories(dir.resolve("prometheus"));
    InstalledTier.deleteRecursively(work);
    Files.createDirectories(work);
    try (PrometheusServer prometheus = PrometheusServer.start(work, SCRAPE, node.cadvisorScrapeJob())) {
      // a sleeping neighbour requesting most of the node: the incumbent keeps a few hundred millicores
      Pod big = BusyLoopPod.requesting(ns, "big", "1600m");
      big.getSpec().getContainers().get(0).setCommand(List.of("/bin/busybox", "sleep", "3600"));
      Instant created = Instant.now();
      cluster.admin().pods().inNamespace(ns).resource(big).create();
      try {
        KubeletResizeTrace shrink = KubeletResizeTrace.trace("big neighbour created", cluster, bootstrapServers, cgroup,
            ns, pod, created, limit -> limit < 1000);
        Phase small = phase(prometheus);
        JsonNode explained = explain(prometheus.url(), dir);
        JsonNode row = container(explained, "loop");

        Instant deleted = Instant.now();
        cluster.admin().pods().inNamespace(ns).withName("big").withGracePeriod(0).delete();
        KubeletResizeTrace grow = KubeletResizeTrace.trace("big neighbour deleted", cluster, bootstrapServers, cgroup,
            ns, pod, deleted, limit -> limit > shrink.toMilli());
        Phase large = phase(prometheus);
        return new Result(shrink, small, grow, large, explained.toString(), row.path("limitMilli").asLong(),
            row.path("throttledRatio").asDouble(), row.path("verdict").asText());
      } finally {
        cluster.admin().pods().inNamespace(ns).withName("big").withGracePeriod(0).delete(); // whatever failed
      }
    }
  }

  private Phase phase(PrometheusServer prometheus) throws InterruptedException {
    CpuCgroup.Stat start = cgroup.stat();
    long[] atStart = scraped(prometheus, start);
    Thread.sleep(PHASE.toMillis());
    CpuCgroup.Stat end = cgroup.stat();
    long[] atEnd = scraped(prometheus, end);
    return new Phase(cgroup.quota(), end.minus(start), atEnd[0] - atStart[0], atEnd[1] - atStart[1]);
  }

  /**
   * Prometheus' periods and throttled periods from a cAdvisor sample taken after {@code stat} was
   * read (cAdvisor samples the cgroup every ~10-15 s: a scrape lags the cgroup by up to that).
   */
  private long[] scraped(PrometheusServer prometheus, CpuCgroup.Stat stat) {
    String series = "{namespace=\"" + ns + "\",pod=\"" + pod + "\",container=\"loop\"}";
    long periods = await("a cAdvisor sample after " + stat).atMost(Duration.ofSeconds(90)).pollInterval(SCRAPE)
        .until(() -> (long) prometheus.query("container_cpu_cfs_periods_total" + series).orElse(-1),
            v -> v >= stat.periods());
    long throttled = await().atMost(Duration.ofSeconds(10)).until(() ->
        (long) prometheus.query("container_cpu_cfs_throttled_periods_total" + series).orElse(-1), v -> v >= 0);
    return new long[] {periods, throttled};
  }

  /** {@code headroom explain NS/POD --prometheus URL -o json}, the operator jar as a user runs it. */
  private JsonNode explain(String prometheusUrl, Path dir) throws IOException, InterruptedException {
    Path home = Files.createDirectories(dir.resolve("explain-home"));
    Path out = dir.resolve("explain.json");
    ProcessBuilder builder = new ProcessBuilder(ProcessHandle.current().info().command().orElse("java"), "-jar",
        PodPlanner.CLI_JAR.toString(), "explain", ns + "/" + pod, "--prometheus", prometheusUrl,
        "--window", PHASE.toSeconds() + "s", "--step", STEP.toSeconds() + "s", "--bootstrap-servers", bootstrapServers,
        "--data-dir", home.resolve("data").toString(), "-o", "json")
        .redirectOutput(out.toFile()).redirectError(dir.resolve("explain.err").toFile());
    builder.environment().put("HOME", home.toString());
    Process process = StageProcess.track(builder.start());
    if (!process.waitFor(180, TimeUnit.SECONDS)) {
      StageProcess.kill(process);
      throw new AssertionError("headroom explain did not finish within 180 s");
    }
    String text = Files.readString(out, StandardCharsets.UTF_8);
    if (process.exitValue() != 0) {
      throw new AssertionError("headroom explain exited " + process.exitValue() + ": " + text
          + Files.readString(dir.resolve("explain.err")));
    }
    return JSON.readTree(text);
  }

  /** The what-if row of {@code container} in explain's JSON. */
  private static JsonNode container(JsonNode explained, String container) {
    for (JsonNode rows : explained.findValues("containers")) {
      for (JsonNode row : rows) {
        if (container.equals(row.path("container").asText()) && row.has("verdict")) {
          return row;
        }
      }
    }
    throw new AssertionError("no what-if row for container " + container + " in " + explained);
  }
}
