package dev.kubeheadroom.scenarios;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.kubeheadroom.projection.NodeProjection;
import dev.kubeheadroom.projection.PodProjection;
import dev.kubeheadroom.projection.WatchEvent;
import dev.kubeheadroom.projection.WatchLogItem;
import dev.kubeheadroom.projection.WatchLogReader;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code simulate} reads its log with {@link WatchLogReader#forProjection}: pods and nodes bound
 * with only the fields the projections read. The yardstick is the full fabric8 binding ({@link
 * WatchLogReader#parse}). On every line of the trace, of generated churn, of the shipped examples
 * and of odd-but-valid and hostile lines, both must give the same item: the same malformed reason,
 * or the same line, time, type and kind, and for pods and nodes the same projections (or the same
 * projection error) — the fabric8 objects differ by design (the lean one lacks what nobody reads),
 * which is also how the test knows the lean binding ran. {@code simulate} reads the log's bytes
 * ({@link WatchLogReader#forProjection(java.io.InputStream)}): the same lines read that way must
 * give items equal to the lean text path's, object for object, with plain pods and nodes bound
 * from the bytes.
 */
class ProjectedFieldsReaderTest {

  @TempDir Path dir;

  @Test
  void everyLineOfTheTraceProjectsTheSameBothWays() throws IOException {
    Path trace = TraceScenarioTest.TRACE;
    assumeTrue(TraceScenario.available(trace), "openb trace not found at " + trace.toAbsolutePath());
    Count count = sameBothWays(TraceLog30.lines());
    assertThat(count.lines).isGreaterThan(1000);
    assertThat(count.lean).as("lines the lean binding read").isGreaterThan(count.lines * 9 / 10);
    assertThat(count.fromBytes).as("lines bound from bytes").isGreaterThan(count.lines * 9 / 10);
  }

  @Test
  void everyLineOfGeneratedChurnAndTheExamplesProjectsTheSameBothWays() throws IOException {
    Path log = dir.resolve("synthetic.jsonl");
    SyntheticScenario.generate(SyntheticScenario.Options.defaults(12, 400).withSeed(7)).write(log);
    Count count = sameBothWays(Files.readAllLines(log));
    assertThat(count.lean).isGreaterThan(400);
    assertThat(count.fromBytes).isGreaterThan(400);
    for (String example : List.of("two-nodes.jsonl", "reserved-headroom.jsonl")) {
      assertThat(sameBothWays(Files.readAllLines(Path.of("..", "..", "docs", "examples", example))).lines).isPositive();
    }
    // contract-smoke's log, beside the trace in the shared directory
    Path contract = TraceScenarioTest.TRACE.toAbsolutePath().getParent().resolveSibling(
        Path.of("tools", "contract-example.jsonl"));
    if (Files.exists(contract)) {
      assertThat(sameBothWays(Files.readAllLines(contract)).lean).isPositive();
    }
  }

  /** Valid objects in shapes the lean binding leaves to the full one, and some it binds. */
  @Test
  void unusualButValidShapesProjectTheSameBothWays() {
    List<String> pods = List.of(
        // kind after metadata, numbers as quantities, a string generation, nulls, duplicate keys
        "{\"metadata\":{\"name\":\"p\",\"namespace\":\"n\",\"uid\":\"u\"},\"apiVersion\":\"v1\",\"kind\":\"Pod\","
            + "\"spec\":{\"nodeName\":\"n1\",\"containers\":[{\"name\":\"a\",\"resources\":{\"requests\":{\"cpu\":\"1\"}}}]}}",
        pod("\"generation\":\"3\"", "{\"name\":\"a\",\"resources\":{\"requests\":{\"cpu\":2,\"memory\":1e9}}}", ""),
        pod("\"generation\":2.0", "{\"name\":\"a\",\"resources\":{\"limits\":{\"cpu\":0.5}}}", ""),
        pod("\"labels\":null,\"annotations\":{\"kube-headroom.dev/max-cpu\":null}", "{\"name\":\"a\"}", ""),
        pod("\"labels\":{\"kube-headroom.dev/mode\":\"managed\",\"kube-headroom.dev/mode\":\"off\"}",
            "{\"name\":\"a\",\"name\":\"b\",\"resources\":{\"requests\":{\"cpu\":\"100m\",\"cpu\":\"200m\"}}}", ""),
        pod("\"ownerReferences\":[{\"kind\":\"ReplicaSet\",\"name\":\"rs\",\"uid\":\"r\",\"controller\":null}]",
            "{\"name\":\"a\",\"resources\":null}", ",\"status\":null"),
        pod("\"ownerReferences\":[{\"kind\":\"ReplicaSet\",\"name\":\"rs\",\"uid\":\"r\",\"controller\":\"true\"}]",
            "{\"name\":\"a\",\"restartPolicy\":\"Always\",\"resizePolicy\":[{\"resourceName\":\"cpu\","
                + "\"restartPolicy\":\"RestartContainer\"}],\"resources\":{\"limits\":{\"cpu\":\"1\",\"memory\":\"1Gi\"}}}",
            ",\"status\":{\"phase\":\"Running\",\"resize\":\"Deferred\",\"conditions\":[{\"type\":"
                + "\"PodResizePending\",\"status\":\"True\",\"reason\":\"Infeasible\",\"message\":\"no\"}]}"),
        pod("", "{\"name\":\"a\",\"resources\":{\"requests\":{\"cpu\":\"1.5\",\"memory\":\"1Gi\",\"nvidia.com/gpu\":\"1\"},"
            + "\"limits\":{\"cpu\":\"2\",\"memory\":\"1Gi\"},\"claims\":[{\"name\":\"c\"}]}}",
            ",\"status\":{\"qosClass\":\"\",\"phase\":\"Pending\"}"),
        pod("", "{\"name\":\"a\",\"resources\":{\"requests\":{\"cpu\":\"bogus\"}}}", ""),
        pod("", "{\"name\":\"a\",\"resources\":{\"requests\":{\"cpu\":\"-1\"}}}", ""),
        pod("", "{\"name\":\"a\",\"resources\":{\"requests\":{\"cpu\":\"1e3\"},\"limits\":{\"cpu\":\"1Ki\"}}}", ""),
        pod("\"uid\":\"\"", "{\"name\":\"a\"}", ""),
        "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\",\"namespace\":\"n\",\"uid\":\"u\"},"
            + "\"spec\":{\"nodeName\":\"n1\",\"resources\":{\"requests\":{\"cpu\":\"1\"}},\"initContainers\":[{\"name\":\"i\","
            + "\"restartPolicy\":\"Always\",\"resources\":{\"requests\":{\"cpu\":\"100m\"}}}],\"containers\":[{\"name\":\"a\"}]}}",
        "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\",\"namespace\":\"n\",\"uid\":\"u\"},"
            + "\"spec\":{\"containers\":[{\"name\":\"a\"}]}}",
        "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"namespace\":\"n\",\"uid\":\"u\"},\"spec\":{\"nodeName\":\"x\"}}",
        "{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"n1\",\"labels\":{\"cpumanager\":\"true\"}},"
            + "\"status\":{\"allocatable\":{\"cpu\":\"15890m\",\"memory\":\"60Gi\"},\"nodeInfo\":{\"operatingSystem\":\"linux\"}}}",
        "{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"n2\"},\"status\":{\"allocatable\":{\"cpu\":8}}}",
        "{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"n3\"},\"status\":{\"allocatable\":{\"cpu\":\"x\"}}}",
        "{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"n4\"},\"spec\":{\"taints\":[]}}");
    List<String> lines = new java.util.ArrayList<>();
    for (String object : pods) {
      for (String type : List.of("ADDED", "DELETED")) {
        lines.add("{\"type\":\"" + type + "\",\"at\":\"2026-03-01T00:00:00Z\",\"object\":" + object + "}");
      }
      lines.add("{\"object\":" + object + ",\"type\":\"MODIFIED\"}"); // no at: the previous line's
    }
    Count count = sameBothWays(lines);
    assertThat(count.lines).isEqualTo(lines.size());
    assertThat(count.lean).as("lines the lean binding read").isPositive();
  }

  @Test
  void hostileLinesAreRefusedForTheSameReasonBothWays() {
    String pod = "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\",\"uid\":\"u\"}}";
    List<String> lines = List.of(
        "[1,2]", "42", "{", "{} {}", "{\"type\":\"ADDED\"}",
        "{\"type\":\"ADDED\",\"object\":" + pod + "} trailing",
        "{\"type\":\"ADDED\",\"at\":5,\"object\":" + pod + "}",
        "{\"type\":\"ADDED\",\"at\":\"yesterday\",\"object\":" + pod + "}",
        "{\"type\":\"TOUCHED\",\"object\":" + pod + "}",
        "{\"type\":7,\"object\":" + pod + "}",
        "{\"type\":\"ADDED\",\"object\":" + pod + ",\"object\":null}",
        "{\"type\":\"ADDED\",\"type\":\"DELETED\",\"object\":" + pod + "}",
        "{\"type\":\"ADDED\",\"object\":{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"kind\":\"Node\",\"metadata\":{\"name\":\"n\"}}}",
        "{\"type\":\"ADDED\",\"object\":{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"n\"},\"kind\":\"Node\"}}",
        "{\"type\":\"ADDED\",\"object\":{\"apiVersion\":\"v2\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\"}}}",
        "{\"type\":\"ADDED\",\"object\":{\"apiVersion\":\"v1\",\"kind\":\"Pod\"}}",
        "{\"type\":\"ADDED\",\"object\":{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":[]}}",
        "{\"type\":\"ADDED\",\"object\":{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\"},"
            + "\"spec\":{\"containers\":[{\"name\":\"a\",\"resources\":{\"requests\":{\"cpu\":{\"x\":1}}}}]}}}",
        "{\"type\":\"ADDED\",\"object\":{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\","
            + "\"generation\":\"many\"}}}",
        "{\"type\":\"ADDED\",\"object\":{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"n\"},"
            + "\"status\":{\"allocatable\":{\"cpu\":[1]}}}}");
    Count count = sameBothWays(lines);
    assertThat(count.lines).isEqualTo(lines.size());
  }

  private static String pod(String meta, String container, String rest) {
    return "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\",\"namespace\":\"n\",\"uid\":\"u\""
        + (meta.isEmpty() ? "" : "," + meta) + "},\"spec\":{\"nodeName\":\"n1\",\"containers\":[" + container + "]}"
        + rest + "}";
  }

  private static final class Count {
    int lines;
    int lean;
    long fromBytes;
  }

  /** Asserts both paths give equivalent items for every non-blank line. */
  private static Count sameBothWays(List<String> lines) {
    WatchLogReader lean = WatchLogReader.forProjection(new BufferedReader(new StringReader("")));
    WatchLogReader full = new WatchLogReader(new BufferedReader(new StringReader("")));
    List<String> nonBlank = lines.stream().filter(l -> !l.isBlank()).toList();
    WatchLogReader bytes = WatchLogReader.forProjection(new ByteArrayInputStream(
        String.join("\n", nonBlank).getBytes(StandardCharsets.UTF_8)));
    Count count = new Count();
    for (String line : nonBlank) {
      count.lines++;
      WatchLogItem a = lean.parseForProjection(count.lines, line);
      WatchLogItem b = full.parse(count.lines, line);
      String what = "line " + count.lines + ": " + line;
      assertThat(bytes.hasNext()).as(what).isTrue();
      assertSameItem(what + " (bytes)", bytes.next(), a);
      if (!(a instanceof WatchEvent ea) || !(b instanceof WatchEvent eb)) {
        assertThat(a).as(what).isEqualTo(b);
        continue;
      }
      assertThat(List.of(ea.lineNumber(), ea.type(), ea.at(), ea.object().getClass()))
          .as(what).isEqualTo(List.of(eb.lineNumber(), eb.type(), eb.at(), eb.object().getClass()));
      if (ea.object() instanceof Pod pa && eb.object() instanceof Pod pb) {
        assertSame(what + " (plain)", () -> PodProjection.project(pa, false), () -> PodProjection.project(pb, false));
        assertSame(what + " (vpa)", () -> PodProjection.project(pa, true), () -> PodProjection.project(pb, true));
        assertSame(what + " (removed)", () -> PodProjection.removed(pa), () -> PodProjection.removed(pb));
        assertSame(what + " (qos)", () -> PodProjection.computeQosClass(pa), () -> PodProjection.computeQosClass(pb));
        assertThat(List.of(Objects.toString(pa.getMetadata().getUid()), Objects.toString(pa.getMetadata().getNamespace())))
            .as(what).isEqualTo(List.of(Objects.toString(pb.getMetadata().getUid()),
                Objects.toString(pb.getMetadata().getNamespace())));
        if (!Boolean.TRUE.equals(outcome(() -> pa.equals(pb)))) { // fabric8 equals parses quantities
          count.lean++;
        }
      } else if (ea.object() instanceof Node na && eb.object() instanceof Node nb) {
        assertSame(what, () -> NodeProjection.project(na), () -> NodeProjection.project(nb));
        assertThat(NodeProjection.removed(na)).as(what).isEqualTo(NodeProjection.removed(nb));
        if (!Boolean.TRUE.equals(outcome(() -> na.equals(nb)))) {
          count.lean++;
        }
      } else {
        assertThat(ea.object()).as(what).isEqualTo(eb.object());
      }
    }
    assertThat(bytes.hasNext()).isFalse();
    count.fromBytes = bytes.linesBoundFromBytes();
    return count;
  }

  /** The same item: equal, and quantities spelled the same ({@code Quantity.equals} compares values, or throws). */
  private static void assertSameItem(String what, WatchLogItem actual, WatchLogItem expected) {
    if (!(actual instanceof WatchEvent a) || !(expected instanceof WatchEvent e)) {
      assertThat(actual).as(what).isEqualTo(expected);
      return;
    }
    assertThat(List.of(a.lineNumber(), a.type(), a.at(), a.object().getClass(), quantities(a)))
        .as(what).isEqualTo(List.of(e.lineNumber(), e.type(), e.at(), e.object().getClass(), quantities(e)));
    Object equal = outcome(() -> a.object().equals(e.object()));
    if (equal instanceof Boolean) { // else a Quantity its constructor took but cannot compare: spelled the same above
      assertThat(equal).as(what).isEqualTo(true);
    }
  }

  /** Every quantity of a pod or node, as amount and format. */
  private static List<String> quantities(WatchEvent event) {
    List<Map<String, Quantity>> maps = new ArrayList<>();
    if (event.object() instanceof Pod pod && pod.getSpec() != null) {
      List<ResourceRequirements> all = new ArrayList<>();
      all.add(pod.getSpec().getResources());
      Stream.concat(pod.getSpec().getContainers().stream(), pod.getSpec().getInitContainers().stream())
          .map(Container::getResources).forEach(all::add);
      for (ResourceRequirements r : all) {
        if (r != null) {
          maps.add(r.getRequests());
          maps.add(r.getLimits());
        }
      }
    } else if (event.object() instanceof Node node && node.getStatus() != null) {
      maps.add(node.getStatus().getAllocatable());
    }
    List<String> out = new ArrayList<>();
    for (Map<String, Quantity> m : maps) {
      if (m != null) {
        m.forEach((k, q) -> out.add(k + "=" + q.getAmount() + "|" + q.getFormat()));
      }
    }
    return out;
  }

  /** Equal results, or the same error. */
  private static void assertSame(String what, Supplier<Object> a, Supplier<Object> b) {
    assertThat(outcome(a)).as(what).isEqualTo(outcome(b));
  }

  private static Object outcome(Supplier<Object> s) {
    try {
      return s.get();
    } catch (RuntimeException e) {
      return e.getClass().getName() + ": " + e.getMessage();
    }
  }
}
