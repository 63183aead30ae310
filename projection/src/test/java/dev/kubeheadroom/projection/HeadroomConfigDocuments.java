package dev.kubeheadroom.projection;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Builders;
import net.jqwik.api.Combinators;

/**
 * jqwik generators of structurally valid HeadroomConfig objects, as a watch delivers them: every
 * spec field of docs/design/config.md optional, each value drawn from its valid range, its edges
 * and just past them, in the forms users write (a quantity as a string or a number, a Go duration,
 * a percent), with pools, selectors and tenancy.
 */
final class HeadroomConfigDocuments {
  private static final JsonNodeFactory F = JsonNodeFactory.instance;

  private HeadroomConfigDocuments() {}

  static Arbitrary<byte[]> documents() {
    return spec().map(spec -> {
      ObjectNode o = F.objectNode().put("apiVersion", ConfigProjection.API_VERSION).put("kind", ConfigProjection.KIND);
      o.putObject("metadata").put("name", "cluster").put("generation", 4).put("resourceVersion", "1000");
      o.set("spec", spec);
      return o.toString().getBytes(StandardCharsets.UTF_8);
    });
  }

  private static Arbitrary<ObjectNode> spec() {
    return Builders.withBuilder(F::objectNode)
        .use(maybe(text("Proportional", "proportional", ""))).in((s, v) -> put(s, "policy", v))
        .use(maybe(Arbitraries.of(F.booleanNode(true), F.booleanNode(false), F.textNode("true"))))
        .in((s, v) -> put(s, "dryRun", v))
        .use(maybe(cpu())).in((s, v) -> put(s, "minBurstFloor", v))
        .use(maybe(decimal())).in((s, v) -> put(s, "maxMultiplier", v))
        .use(maybe(cpu())).in((s, v) -> put(s, "quantum", v))
        .use(maybe(deadband())).in((s, v) -> put(s, "deadband", v))
        .use(maybe(duration())).in((s, v) -> put(s, "debouncePeriod", v))
        .use(maybe(duration())).in((s, v) -> put(s, "maxDebounceDelay", v))
        .use(maybe(duration())).in((s, v) -> put(s, "backoffPeriod", v))
        .use(maybe(rateLimits())).in((s, v) -> put(s, "rateLimits", v))
        .use(maybe(webhook())).in((s, v) -> put(s, "webhook", v))
        .use(maybe(selector())).in((s, v) -> put(s, "namespaceSelector", v))
        .use(maybe(names())).in((s, v) -> put(s, "excludedNamespaces", v))
        .use(maybe(pool().list().ofMaxSize(3).map(l -> (JsonNode) F.arrayNode().addAll(l))))
        .in((s, v) -> put(s, "pools", v))
        .use(maybe(text("None", "Namespaces", "namespaces"))).in((s, v) -> put(s, "tenancy", v))
        .use(maybe(names())).in((s, v) -> put(s, "gangs", v == null ? null : F.objectNode().set("ownerKinds", v)))
        .build(s -> s);
  }

  private static Arbitrary<JsonNode> pool() {
    return Builders.withBuilder(F::objectNode)
        .use(text("batch", "latency", "batch", "Bad_Name", "", "a".repeat(64))).in((p, v) -> put(p, "name", v))
        .use(Arbitraries.oneOf(selector(), Arbitraries.just(F.objectNode()), Arbitraries.just(null)))
        .in((p, v) -> put(p, "nodeSelector", v))
        .use(maybe(cpu())).in((p, v) -> put(p, "minBurstFloor", v))
        .use(maybe(Arbitraries.oneOf(decimal(), text("Unlimited", "unlimited")))).in((p, v) -> put(p, "maxMultiplier", v))
        .use(maybe(deadband())).in((p, v) -> put(p, "deadband", v))
        .use(maybe(duration())).in((p, v) -> put(p, "debouncePeriod", v))
        .use(maybe(duration())).in((p, v) -> put(p, "maxDebounceDelay", v))
        .build(p -> (JsonNode) p);
  }

  /** CPU quantities: millicores, cores, decimals, exponents, sub-milli, negative, binary, garbage, numbers. */
  private static Arbitrary<JsonNode> cpu() {
    return Arbitraries.oneOf(
        Arbitraries.longs().between(0, 100_000).map(m -> F.textNode(m + "m")),
        Arbitraries.integers().between(0, 64).map(n -> (JsonNode) F.numberNode(n)),
        text("0", "1", "0.5", "1e3m", "2k", "0.0001", "-1", "-5m", "100Mi", "1.2.3", "x", "9223372036854775807"),
        Arbitraries.of(F.numberNode(0.25), F.numberNode(new BigDecimal("1e30")), F.numberNode(-3)));
  }

  private static Arbitrary<JsonNode> decimal() {
    return Arbitraries.oneOf(
        Arbitraries.integers().between(0, 150).map(n -> (JsonNode) F.textNode(String.valueOf(n))),
        Arbitraries.bigDecimals().between(BigDecimal.ZERO, BigDecimal.valueOf(120)).ofScale(3).map(F::numberNode),
        text("2.5", "100", "100.0001", "1.", ".5", "-1", "1e2", "NaN", ""));
  }

  private static Arbitrary<JsonNode> duration() {
    return Arbitraries.oneOf(
        Arbitraries.integers().between(0, 120_000).map(ms -> (JsonNode) F.textNode(ms + "ms")),
        text("0s", "500ms", "2s", "10s", "1m30s", "1h", "-1s", "2", "", "1.5h", "2562048h", "9999999999h", "1d"),
        Arbitraries.just(F.numberNode(2)));
  }

  private static Arbitrary<JsonNode> percent() {
    return Arbitraries.oneOf(Arbitraries.integers().between(-1, 101).map(n -> (JsonNode) F.numberNode(n)),
        Arbitraries.of(F.numberNode(2.5), F.textNode("10"), F.numberNode(10.0)));
  }

  private static Arbitrary<JsonNode> deadband() {
    return Combinators.combine(maybe(percent()), maybe(percent()))
        .as((g, s) -> put(put(F.objectNode(), "grow", g), "shrink", s));
  }

  private static Arbitrary<JsonNode> rateLimits() {
    Arbitrary<JsonNode> rate = Arbitraries.oneOf(Arbitraries.integers().between(-1, 1000).map(n -> (JsonNode) F.numberNode(n)),
        Arbitraries.of(F.numberNode(0.5), F.textNode("5"), F.textNode("0")));
    Arbitrary<JsonNode> burst = Arbitraries.oneOf(Arbitraries.integers().between(-1, 1000).map(n -> (JsonNode) F.numberNode(n)),
        Arbitraries.of(F.numberNode(3_000_000_000L), F.numberNode(1.5)));
    return Combinators.combine(maybe(rate), maybe(rate), maybe(burst))
        .as((p, q, b) -> put(put(put(F.objectNode(), "perNodePatchesPerSecond", p), "clientQPS", q), "clientBurst", b));
  }

  private static Arbitrary<JsonNode> webhook() {
    return Combinators.combine(maybe(Arbitraries.of(F.booleanNode(true), F.booleanNode(false))), maybe(decimal()))
        .as((e, m) -> put(put(F.objectNode(), "enabled", e), "initialMultiplier", m));
  }

  private static Arbitrary<JsonNode> selector() {
    Arbitrary<JsonNode> labels = Arbitraries.of("tier", "env", "kube-headroom.dev/mode").map(k -> {
      ObjectNode m = F.objectNode();
      return (JsonNode) m.put(k, "web");
    });
    Arbitrary<JsonNode> term = Combinators.combine(text("env", "tier", ""), text("In", "NotIn", "Exists", "DoesNotExist", "in"),
        Arbitraries.<List<String>>of(List.of(), List.of("prod"), List.of("a", "b")))
        .as((k, op, values) -> {
          ObjectNode t = F.objectNode();
          t.set("key", k);
          t.set("operator", op);
          if (!values.isEmpty()) {
            var array = t.putArray("values");
            values.forEach(array::add);
          }
          return (JsonNode) t;
        });
    return Combinators.combine(maybe(labels), maybe(term.list().ofMaxSize(3).map(l -> (JsonNode) F.arrayNode().addAll(l))))
        .as((l, e) -> put(put(F.objectNode(), "matchLabels", l), "matchExpressions", e));
  }

  private static Arbitrary<JsonNode> names() {
    return Arbitraries.of("kube-system", "monitoring", "Job", "JobSet", "").list().ofMaxSize(3)
        .map(l -> {
          var a = F.arrayNode();
          l.forEach(a::add);
          return (JsonNode) a;
        });
  }

  private static Arbitrary<JsonNode> text(String... values) {
    return Arbitraries.of(values).map(F::textNode);
  }

  private static ObjectNode put(ObjectNode o, String field, JsonNode value) {
    if (value != null) {
      o.set(field, value);
    }
    return o;
  }

  private static <T> Arbitrary<T> maybe(Arbitrary<T> value) {
    return Arbitraries.oneOf(Arbitraries.just(null), value);
  }
}
