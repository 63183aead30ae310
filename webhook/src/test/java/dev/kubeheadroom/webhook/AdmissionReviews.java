package dev.kubeheadroom.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kubeheadroom.schemas.ClusterConfig;
import dev.kubeheadroom.schemas.NamespaceInfo;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Builders;
import net.jqwik.api.Combinators;
import net.jqwik.api.RandomDistribution;
import net.jqwik.api.Tuple;

/**
 * jqwik generators of structurally valid AdmissionReview v1 requests for a pod CREATE, as the API
 * server sends them: app containers, plain and restartable (sidecar) init containers, CPU requests
 * and limits in every quantity form Kubernetes accepts (or absent), memory set equal or not, resize
 * policies, the {@code max-cpu} annotation, the opt-out label; and the namespace (its LimitRange
 * caps) and config (the webhook's knobs) it is judged under.
 */
final class AdmissionReviews {
  private static final JsonNodeFactory F = JsonNodeFactory.instance;

  private AdmissionReviews() {}

  /** One try: the review's body, the namespace it is in, the config in force. */
  record Case(byte[] body, NamespaceInfo namespace, ClusterConfig config) {
    @Override
    public String toString() {
      return new String(body, StandardCharsets.UTF_8) + " in " + namespace + " under " + config;
    }
  }

  static Arbitrary<Case> cases() {
    return Combinators.combine(pods(), namespaces(), configs(), Arbitraries.strings().alpha().numeric().ofLength(8))
        .as((pod, ns, config, uid) -> new Case(review(uid, ns.name(), pod), ns, config));
  }

  private static byte[] review(String uid, String namespace, ObjectNode pod) {
    ObjectNode review = F.objectNode().put("apiVersion", "admission.k8s.io/v1").put("kind", "AdmissionReview");
    ObjectNode request = review.putObject("request").put("uid", uid);
    request.putObject("kind").put("group", "").put("version", "v1").put("kind", "Pod");
    request.putObject("resource").put("group", "").put("version", "v1").put("resource", "pods");
    request.put("namespace", namespace).put("operation", "CREATE");
    ((ObjectNode) pod.get("metadata")).put("namespace", namespace);
    request.set("object", pod);
    return review.toString().getBytes(StandardCharsets.UTF_8);
  }

  private static Arbitrary<ObjectNode> pods() {
    Arbitrary<List<ObjectNode>> apps = container(false).list().ofMinSize(1).ofMaxSize(4);
    Arbitrary<List<ObjectNode>> inits = container(true).list().ofMaxSize(3);
    Arbitrary<String> maxCpu = Arbitraries.oneOf(Arbitraries.just(null), cpu(), Arbitraries.of("0", "x", "-1"));
    return Combinators.combine(apps, inits, maxCpu, Arbitraries.integers().between(0, 19))
        .as((a, i, cap, flags) -> {
          ObjectNode pod = F.objectNode().put("apiVersion", "v1").put("kind", "Pod");
          ObjectNode meta = pod.putObject("metadata").put("generateName", "web-");
          if (cap != null) {
            meta.putObject("annotations").put("kube-headroom.dev/max-cpu", cap);
          }
          if (flags == 0) {
            meta.putObject("labels").put("kube-headroom.dev/mode", "unmanaged");
          }
          ObjectNode spec = pod.putObject("spec");
          ArrayNode containers = spec.putArray("containers");
          a.forEach(c -> containers.add(c.deepCopy()));
          if (!i.isEmpty()) {
            ArrayNode initContainers = spec.putArray("initContainers");
            i.forEach(c -> initContainers.add(c.deepCopy()));
          }
          for (int n = 0; n < containers.size(); n++) {
            ((ObjectNode) containers.get(n)).put("name", "c" + n);
          }
          for (int n = 0; n < i.size(); n++) {
            ((ObjectNode) spec.get("initContainers").get(n)).put("name", "i" + n);
          }
          return pod;
        });
  }

  private static Arbitrary<ObjectNode> container(boolean init) {
    // Mostly what the webhook seeds (a CPU request, no CPU limit); also both, a limit alone, neither.
    Arbitrary<Tuple.Tuple2<String, String>> cpuShape = Arbitraries.frequencyOf(
        Tuple.of(6, cpu().map(r -> Tuple.of(r, (String) null))),
        Tuple.of(2, Combinators.combine(cpu(), cpu()).as(Tuple::of)),
        Tuple.of(1, cpu().map(l -> Tuple.of((String) null, l))),
        Tuple.of(1, Arbitraries.just(Tuple.of((String) null, (String) null))));
    Arbitrary<String> maybeMemory = Arbitraries.of(null, "64Mi", "1Gi", "128974848");
    return Builders.withBuilder(() -> F.objectNode().put("image", "registry.example.com/app:1"))
        .use(cpuShape).in((c, shape) -> set(set(c, "requests", "cpu", shape.get1()), "limits", "cpu", shape.get2()))
        .use(maybeMemory).in((c, q) -> set(c, "requests", "memory", q))
        .use(Arbitraries.integers().between(0, 2)).in((c, m) -> {
          JsonNode memoryRequest = c.path("resources").path("requests").path("memory");
          // memory limit = request: Guaranteed-shaped memory
          return m == 1 && memoryRequest.isTextual() ? set(c, "limits", "memory", memoryRequest.asText()) : c;
        })
        .use(Arbitraries.frequency(Tuple.of(12, "none"), Tuple.of(6, "NotRequired"), Tuple.of(1, "RestartContainer")))
        .in((c, p) -> {
          if (!p.equals("none")) {
            c.putArray("resizePolicy").addObject().put("resourceName", "cpu").put("restartPolicy", p);
          }
          return c;
        })
        .use(Arbitraries.of(false, true)).in((c, sidecar) -> init && sidecar ? c.put("restartPolicy", "Always") : c)
        .build(c -> c);
  }

  /** The container with {@code resources.<kind>.<resource>} set to {@code quantity} (none when null). */
  private static ObjectNode set(ObjectNode c, String kind, String resource, String quantity) {
    if (quantity == null) {
      return c;
    }
    ObjectNode resources = c.has("resources") ? (ObjectNode) c.get("resources") : c.putObject("resources");
    ObjectNode amounts = resources.has(kind) ? (ObjectNode) resources.get(kind) : resources.putObject(kind);
    amounts.put(resource, quantity);
    return c;
  }

  /** CPU quantities in the forms the API server accepts: millicores, cores, decimals, exponents, sub-milli. */
  static Arbitrary<String> cpu() {
    return Arbitraries.oneOf(
        Arbitraries.longs().between(0, 200_000).map(m -> m + "m"),
        Arbitraries.integers().between(0, 128).map(String::valueOf),
        Arbitraries.integers().between(1, 999).map(n -> "0." + n),
        Arbitraries.integers().between(1, 9_999_999).map(n -> n + "u"),
        Arbitraries.integers().between(1, 999_999_999).map(n -> n + "n"),
        Arbitraries.of("1e3", "2k", "0.0001", "1500500u", "100Mi", "1E-2", "0", "+1", "1.", ".5", "12e-4"));
  }

  private static Arbitrary<NamespaceInfo> namespaces() {
    Arbitrary<Long> cap = Arbitraries.oneOf(Arbitraries.just(0L), Arbitraries.longs().between(1, 20_000));
    Arbitrary<Long> ratio = Arbitraries.oneOf(Arbitraries.just(0L), Arbitraries.longs().between(1000, 10_000));
    return Combinators.combine(cap, cap, ratio, Arbitraries.of(true, true, true, true, true, false))
        .as((max, podMax, r, managed) -> new NamespaceInfo("fuzz",
            managed ? AdmissionAnswers.MANAGED : Map.of(), max, podMax, r));
  }

  private static Arbitrary<ClusterConfig> configs() {
    Arbitrary<Double> initial = Arbitraries.oneOf(Arbitraries.of(1.0, 2.0, 2.0, 2.0, 100.0),
        Arbitraries.doubles().between(1, 100).ofScale(3).withDistribution(RandomDistribution.uniform()));
    Arbitrary<Double> max = Arbitraries.oneOf(Arbitraries.of(0.0, 0.0, 1.0, 10.0, 10.0),
        Arbitraries.doubles().between(0, 100).ofScale(3).withDistribution(RandomDistribution.uniform()));
    Arbitrary<Long> quantum = Arbitraries.frequencyOf(Tuple.of(3, Arbitraries.of(1L, 10L, 10L, 50L, 1000L)),
        Tuple.of(1, Arbitraries.longs().between(1, 5000)));
    // Without jqwik's edge cases: they would pair the smallest multipliers (no boost) in most tries.
    return Combinators.combine(initial, max, quantum).as((i, m, q) -> Fixtures.config(true, i, m, q))
        .withoutEdgeCases();
  }
}
