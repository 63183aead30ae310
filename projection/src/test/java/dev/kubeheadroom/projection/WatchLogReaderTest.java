package dev.kubeheadroom.projection;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.schemas.ContainerKind;
import dev.kubeheadroom.schemas.ContainerSnapshot;
import dev.kubeheadroom.schemas.NodeSnapshot;
import dev.kubeheadroom.schemas.PodSnapshot;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.LimitRange;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class WatchLogReaderTest {

  static List<WatchLogItem> read(String log) {
    try (Stream<WatchLogItem> items = WatchLogReader.stream(new BufferedReader(new StringReader(log)))) {
      return items.toList();
    }
  }

  static final String NODE = "{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"n1\"}}";

  @Test
  void projectingTheContractExampleGivesAlphaAndBetaOnN1() throws Exception {
    List<WatchLogItem> items;
    try (var in = getClass().getResourceAsStream("/contract-example.jsonl");
        Stream<WatchLogItem> stream = WatchLogReader.stream(
            new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8)))) {
      items = stream.toList();
    }
    Map<String, PodSnapshot> pods = new TreeMap<>();
    Map<String, NodeSnapshot> nodes = new TreeMap<>();
    for (WatchLogItem item : items) {
      WatchEvent event = (WatchEvent) item;
      if (event.object() instanceof Pod pod) {
        PodProjection.project(pod, false).ifPresent(p -> pods.put(p.name(), p));
      } else if (event.object() instanceof Node node) {
        nodes.put(node.getMetadata().getName(), NodeProjection.project(node));
      }
    }

    assertThat(items).hasSize(6).allMatch(WatchEvent.class::isInstance);
    assertThat(nodes.get("n1").allocatableMilli()).isEqualTo(8000);
    assertThat(pods).containsOnlyKeys("alpha-1", "beta-1");
    assertThat(pods.values()).extracting(PodSnapshot::node).containsOnly("n1");
    assertThat(pods.get("alpha-1").containers()).extracting(ContainerSnapshot::cpuRequestMilli).containsExactly(1000L);
    assertThat(pods.get("beta-1").containers())
        .containsExactly(
            new ContainerSnapshot("app", ContainerKind.APP, 2000, 0, false, false),
            new ContainerSnapshot("sidecar", ContainerKind.APP, 500, 0, false, false));
    assertThat(pods.get("beta-1").effectiveRequestMilli()).isEqualTo(2500);
    assertThat(((WatchEvent) items.get(0)).at()).isEqualTo(Instant.parse("2026-03-01T12:00:10Z"));
  }

  @Test
  void bindsEverySupportedKindToItsFabric8Type() {
    List<WatchLogItem> items = read(String.join("\n",
        "{\"type\":\"ADDED\",\"object\":{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\",\"namespace\":\"a\"}}}",
        "{\"type\":\"ADDED\",\"object\":" + NODE + "}",
        "{\"type\":\"ADDED\",\"object\":{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"a\"}}}",
        "{\"type\":\"ADDED\",\"object\":{\"apiVersion\":\"v1\",\"kind\":\"LimitRange\",\"metadata\":{\"name\":\"l\",\"namespace\":\"a\"}}}",
        "{\"type\":\"ADDED\",\"object\":{\"apiVersion\":\"kube-headroom.dev/v1alpha1\",\"kind\":\"HeadroomConfig\",\"metadata\":{\"name\":\"cluster\"},\"spec\":{\"quantum\":\"5m\"}}}",
        "{\"type\":\"ADDED\",\"object\":{\"apiVersion\":\"autoscaling.k8s.io/v1\",\"kind\":\"VerticalPodAutoscaler\",\"metadata\":{\"name\":\"v\",\"namespace\":\"a\"}}}"));

    assertThat(items).extracting(i -> (Object) ((WatchEvent) i).object().getClass()).containsExactly(
        Pod.class, Node.class, Namespace.class, LimitRange.class,
        GenericKubernetesResource.class, GenericKubernetesResource.class);
    GenericKubernetesResource config = (GenericKubernetesResource) ((WatchEvent) items.get(4)).object();
    assertThat(ConfigProjection.project(config).quantumMilli()).isEqualTo(5);
  }

  @Test
  void aLineWithoutAtTakesThePreviousLinesTimeAndTheFirstLinesTakeTheStart() {
    List<WatchLogItem> items = read(String.join("\n",
        "{\"type\":\"ADDED\",\"object\":" + NODE + "}",
        "{\"type\":\"MODIFIED\",\"at\":\"2026-01-01T00:00:10Z\",\"object\":" + NODE + "}",
        "{\"type\":\"MODIFIED\",\"object\":" + NODE + "}",
        "{\"type\":\"MODIFIED\",\"at\":\"2026-01-01T01:00:10+01:00\",\"object\":" + NODE + "}",
        "{\"type\":\"DELETED\",\"object\":" + NODE + "}"));

    assertThat(items).extracting(i -> ((WatchEvent) i).at()).containsExactly(
        Instant.EPOCH,
        Instant.parse("2026-01-01T00:00:10Z"),
        Instant.parse("2026-01-01T00:00:10Z"),
        Instant.parse("2026-01-01T00:00:10Z"),
        Instant.parse("2026-01-01T00:00:10Z"));
    assertThat(items).extracting(i -> ((WatchEvent) i).type()).containsExactly(
        WatchEvent.Type.ADDED, WatchEvent.Type.MODIFIED, WatchEvent.Type.MODIFIED,
        WatchEvent.Type.MODIFIED, WatchEvent.Type.DELETED);
  }

  @Test
  void malformedLinesAreReportedWithTheirLineNumberAndReadingGoesOn() {
    List<WatchLogItem> items = read(String.join("\n",
        "{\"type\":\"ADDED\",\"at\":\"2026-01-01T00:00:01Z\",\"object\":" + NODE + "}",
        "",
        "{not json",
        "{\"type\":\"BOOKMARK\",\"object\":" + NODE + "}",
        "   ",
        "{\"type\":\"ADDED\"}",
        "{\"type\":\"ADDED\",\"object\":{\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"x\"}}}",
        "{\"type\":\"ADDED\",\"object\":{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{\"name\":\"x\"}}}",
        "{\"type\":\"ADDED\",\"at\":\"yesterday\",\"object\":" + NODE + "}",
        "{\"type\":\"ADDED\",\"object\":{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\"},\"spec\":{\"containers\":\"oops\"}}}",
        "[1,2]",
        "{\"type\":\"ADDED\",\"object\":" + NODE + "} trailing",
        "{\"type\":\"DELETED\",\"object\":" + NODE + "}"));

    assertThat(items).extracting(WatchLogItem::lineNumber)
        .containsExactly(1L, 3L, 4L, 6L, 7L, 8L, 9L, 10L, 11L, 12L, 13L);
    assertThat(items.get(0)).isInstanceOf(WatchEvent.class);
    assertThat(items.subList(1, 10)).allMatch(Malformed.class::isInstance);
    assertThat(items.subList(1, 10)).extracting(i -> ((Malformed) i).reason()).satisfiesExactly(
        r -> assertThat(r).startsWith("bad JSON: "),
        r -> assertThat(r).isEqualTo("unknown type \"BOOKMARK\" (ADDED, MODIFIED or DELETED)"),
        r -> assertThat(r).isEqualTo("missing object"),
        r -> assertThat(r).isEqualTo("object has no kind"),
        r -> assertThat(r).isEqualTo("unsupported kind Deployment (apiVersion apps/v1)"),
        r -> assertThat(r).isEqualTo("bad time \"yesterday\": not RFC 3339"),
        r -> assertThat(r).startsWith("bad Pod: ").doesNotContain("\n"),
        r -> assertThat(r).isEqualTo("not a JSON object"),
        r -> assertThat(r).startsWith("bad JSON: "));
    WatchEvent last = (WatchEvent) items.get(10);
    assertThat(last.type()).isEqualTo(WatchEvent.Type.DELETED);
    assertThat(last.at()).isEqualTo(Instant.parse("2026-01-01T00:00:01Z"));
    assertThat(last.ref()).isEqualTo("Node(n1)");
  }

  @Test
  void aKnownKindWithTheWrongApiVersionIsUnsupported() {
    List<WatchLogItem> items = read(
        "{\"type\":\"ADDED\",\"object\":{\"apiVersion\":\"v2\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\"}}}");

    assertThat(items).containsExactly(new Malformed(1, "unsupported kind Pod (apiVersion v2)"));
  }
}
