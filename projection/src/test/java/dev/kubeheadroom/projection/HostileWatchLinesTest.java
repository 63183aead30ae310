package dev.kubeheadroom.projection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Watch lines an adversarial tester wrote: each is counted as malformed (named by its line) or
 * read, never an exception out of the reader. Every case is read both as text and as bytes (the
 * two paths {@code simulate} and the tests use).
 */
class HostileWatchLinesTest {
  private static final String NODE = "{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"n1\"},"
      + "\"status\":{\"allocatable\":{\"cpu\":\"2\"}}}";

  private static String line(String at) {
    return "{\"type\":\"ADDED\",\"at\":\"" + at + "\",\"object\":" + NODE + "}";
  }

  static List<List<WatchLogItem>> bothWays(byte[] log) {
    List<WatchLogItem> asText;
    try (Stream<WatchLogItem> items = WatchLogReader.stream(WatchLogReader.forProjection(
        new BufferedReader(new StringReader(new String(log, StandardCharsets.UTF_8)))))) {
      asText = items.toList();
    }
    List<WatchLogItem> asBytes;
    try (Stream<WatchLogItem> items = WatchLogReader.stream(WatchLogReader.forProjection(new ByteArrayInputStream(log)))) {
      asBytes = items.toList();
    }
    return List.of(asText, asBytes);
  }

  static List<List<WatchLogItem>> bothWays(String log) {
    return bothWays(log.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void aTimeBefore1970OrPastYear9999IsAMalformedLineAndGoZeroTimeIsUnset() {
    String log = String.join("\n", line("2026-03-01T12:00:00Z"), line("0001-01-01T00:00:00Z"),
        line("1969-12-31T23:59:59Z"), line("+999999999-01-01T00:00:00Z"), line("10000-01-01T00:00:00Z"),
        line("1970-01-01T00:00:00Z"));
    for (List<WatchLogItem> items : bothWays(log)) {
      assertThat(items).hasSize(6);
      assertThat(((WatchEvent) items.get(1)).at()).as("Go's zero time: the last line's").isEqualTo(Instant.parse("2026-03-01T12:00:00Z"));
      assertThat(items.get(2)).isEqualTo(new Malformed(3, "bad time \"1969-12-31T23:59:59Z\": before 1970-01-01T00:00:00Z"));
      assertThat(items.get(3)).isEqualTo(new Malformed(4, "bad time \"+999999999-01-01T00:00:00Z\": after 9999-12-31T23:59:59Z"));
      assertThat(items.get(4)).isInstanceOf(Malformed.class);
      assertThat(((WatchEvent) items.get(5)).at()).isEqualTo(Instant.EPOCH);
    }
  }

  private static final String CONTAINER = "{\"name\":\"app\",\"resources\":{\"requests\":{\"cpu\":\"1\"}}}";

  private static String pod(String metadataExtra, String specExtra, String containers, String status) {
    return "{\"type\":\"ADDED\",\"at\":\"2026-03-01T12:00:00Z\",\"object\":{\"apiVersion\":\"v1\",\"kind\":\"Pod\","
        + "\"metadata\":{\"name\":\"p\",\"namespace\":\"a\",\"uid\":\"u\"" + metadataExtra + "},"
        + "\"spec\":{\"nodeName\":\"n1\",\"containers\":" + containers + specExtra + "},"
        + "\"status\":{\"phase\":\"Running\"" + status + "}}}";
  }

  @Test
  void aNullElementInAPodsListsIsAnInvalidPodNamingThePath() {
    String withPolicy = "{\"name\":\"app\",\"resizePolicy\":[{\"resourceName\":\"cpu\",\"restartPolicy\":\"NotRequired\"},null]}";
    var cases = new java.util.LinkedHashMap<String, String>();
    cases.put(pod("", "", "[" + CONTAINER + ",null]", ""), "spec.containers[1] is null");
    cases.put(pod("", ",\"initContainers\":[null]", "[" + CONTAINER + "]", ""), "spec.initContainers[0] is null");
    cases.put(pod("", "", "[" + withPolicy + "]", ""), "spec.containers[0].resizePolicy[1] is null");
    cases.put(pod(",\"ownerReferences\":[null]", "", "[" + CONTAINER + "]", ""), "metadata.ownerReferences[0] is null");
    cases.put(pod("", "", "[" + CONTAINER + "]", ",\"conditions\":[null]"), "status.conditions[0] is null");
    cases.forEach((log, path) -> {
      for (List<WatchLogItem> items : bothWays(log)) {
        assertThat(items).hasSize(1);
        if (items.get(0) instanceof WatchEvent event) {
          assertThatThrownBy(() -> PodProjection.project((io.fabric8.kubernetes.api.model.Pod) event.object(), false))
              .isInstanceOf(ProjectionException.class).hasMessage("Pod(a/p): " + path);
        } else {
          assertThat(items.get(0)).as(path).isInstanceOf(Malformed.class);
        }
      }
    });
  }

  @Test
  void aLimitBelowItsRequestIsAnInvalidPod() {
    String container = "{\"name\":\"app\",\"resources\":{\"requests\":{\"cpu\":\"2050m\"},\"limits\":{\"cpu\":\"1050m\"}}}";
    for (List<WatchLogItem> items : bothWays(pod("", "", "[" + container + "]", ""))) {
      WatchEvent event = (WatchEvent) items.get(0);
      assertThatThrownBy(() -> PodProjection.project((io.fabric8.kubernetes.api.model.Pod) event.object(), false))
          .isInstanceOf(ProjectionException.class)
          .hasMessage("Pod(a/p): container app: resources.limits.cpu 1050m is below resources.requests.cpu 2050m");
    }
  }
}
