package dev.kubeheadroom.bench;

import dev.kubeheadroom.kubedouble.ApiServerDouble;
import dev.kubeheadroom.policy.Decision;
import dev.kubeheadroom.policy.PodInput;
import dev.kubeheadroom.policy.PolicyConfig;
import dev.kubeheadroom.policy.SlackPolicy;
import dev.kubeheadroom.schemas.HeadroomKeys;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The design point's cluster, built in memory then created in the API double: {@code nodes}
 * nodes (allocatable CPU cycled from the Alibaba openb node list, else 96 cores), {@code podsPerNode}
 * running pods each (CPU requests drawn from the openb pod list, scaled by {@code requestScale},
 * a node's draws shrunk to fit 95% of it), 200 namespaces of which three in four are managed,
 * and the HeadroomConfig ({@code dryRun: false}, {@code maxMultiplier: "10"}).
 *
 * <p>Managed pods start at the limit the policy gives them under the default config, as on a
 * cluster Headroom already runs on (a restart, not a first install: the initial sync then finds
 * limits within the deadband, design §8.6), so the actuator's budget is not spent on seeding.
 */
final class DesignPointCluster {
  static final int NAMESPACES = 200;
  static final String CONTAINER = "app";

  /** One pod as seeded: where it runs, its CPU request and the limit it starts with (0: none). */
  record SeededPod(String namespace, String name, String node, long requestMilli, long limitMilli, boolean managed) {}

  final List<String> nodes = new ArrayList<>();
  final Map<String, Long> allocatable = new HashMap<>();
  final List<SeededPod> pods = new ArrayList<>();

  DesignPointCluster(int nodeCount, int podsPerNode, double requestScale, Path trace, long seed) throws IOException {
    long[] nodeSizes = {96_000};
    List<Long> requests = new ArrayList<>();
    if (trace != null) {
      nodeSizes = Files.readAllLines(trace.resolve("openb_node_list_all_node.csv")).stream().skip(1)
          .mapToLong(line -> Long.parseLong(line.split(",")[1])).toArray();
      Files.readAllLines(trace.resolve("openb_pod_list_default.csv")).stream().skip(1)
          .map(line -> Long.parseLong(line.split(",")[1])).filter(m -> m > 0).forEach(requests::add);
    } else {
      for (long m : new long[] {1000, 2000, 4000, 4000, 4000, 8000, 12000, 12000, 12000, 16000, 32000}) {
        requests.add(m);
      }
    }
    Random random = new Random(seed);
    for (int n = 0; n < nodeCount; n++) {
      String node = String.format(Locale.ROOT, "node-%05d", n);
      long cpu = nodeSizes[n % nodeSizes.length];
      nodes.add(node);
      allocatable.put(node, cpu);
      long[] drawn = new long[podsPerNode];
      long sum = 0;
      for (int k = 0; k < podsPerNode; k++) {
        drawn[k] = Math.max(10, Math.round(requests.get(random.nextInt(requests.size())) * requestScale / 10.0) * 10);
        sum += drawn[k];
      }
      double fit = sum > cpu * 0.95 ? cpu * 0.95 / sum : 1.0;
      List<PodInput> inputs = new ArrayList<>();
      List<String[]> placed = new ArrayList<>();
      for (int k = 0; k < podsPerNode; k++) {
        long request = Math.max(10, (long) Math.floor(drawn[k] * fit / 10.0) * 10);
        int ns = random.nextInt(NAMESPACES);
        String name = node + "-p" + k;
        inputs.add(new PodInput(namespace(ns) + "/" + name, request, 0, managed(ns), 0));
        placed.add(new String[] {namespace(ns), name});
      }
      Map<String, Long> targets = new HashMap<>();
      for (Decision d : SlackPolicy.computeNode(cpu, inputs, PolicyConfig.DEFAULTS).decisions()) {
        targets.put(d.key(), d.targetLimitMilli());
      }
      for (int k = 0; k < podsPerNode; k++) {
        PodInput in = inputs.get(k);
        long limit = in.managed() ? targets.get(in.key()) : 0;
        pods.add(new SeededPod(placed.get(k)[0], placed.get(k)[1], node, in.requestMilli(), limit, in.managed()));
      }
    }
  }

  static String namespace(int i) {
    return String.format(Locale.ROOT, "ns-%03d", i);
  }

  static boolean managed(int namespace) {
    return namespace % 4 != 0;
  }

  long managedPods() {
    return pods.stream().filter(SeededPod::managed).count();
  }

  /** Managed pods whose seeded limit is above {@code multiplier} × request (what a lower cap must shrink). */
  long above(double multiplier) {
    return pods.stream().filter(p -> p.managed() && p.limitMilli() > p.requestMilli() * multiplier).count();
  }

  /** Creates everything through the seed client, {@code threads} requests at a time. */
  void create(ApiServerDouble api, int threads) throws Exception {
    create(api.seedClient(), threads);
  }

  /** As above, through any admin client (a real API server's too). */
  void create(KubernetesClient seed, int threads) throws Exception {
    for (int i = 0; i < NAMESPACES; i++) {
      seed.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(namespace(i))
          .withLabels(managed(i) ? Map.of(HeadroomKeys.MODE_LABEL, HeadroomKeys.MANAGED) : Map.of())
          .endMetadata().build()).create();
    }
    seed.genericKubernetesResources(ApiServerDouble.HEADROOM_CONFIG).resource(config("10")).create();
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (String node : nodes) {
        done.add(pool.submit(() -> createRetrying(() -> seed.nodes().resource(new NodeBuilder().withNewMetadata()
            .withName(node)
            .withLabels(Map.of("kubernetes.io/os", "linux")).endMetadata().withNewStatus()
            .withAllocatable(Map.of("cpu", new Quantity(allocatable.get(node) + "m"), "memory", new Quantity("1Ti"),
                "pods", new Quantity("110")))
            .endStatus().build()).create())));
      }
      for (Future<?> f : done) {
        f.get();
      }
      done.clear();
      for (SeededPod p : pods) {
        done.add(pool.submit(() -> createRetrying(() -> seed.pods().inNamespace(p.namespace()).resource(pod(p)).create())));
      }
      for (Future<?> f : done) {
        f.get();
      }
    } finally {
      pool.shutdown();
    }
  }

  /**
   * A create, again after a client timeout (a starved machine: the request may have gone
   * through, so a 409 for the retry means it did).
   */
  static void createRetrying(Runnable create) {
    for (int attempt = 1; ; attempt++) {
      try {
        create.run();
        return;
      } catch (KubernetesClientException e) {
        if (e.getCode() == 409 && attempt > 1) {
          return;
        }
        if (e.getCode() != 0 || attempt >= 10) {
          throw e;
        }
      }
    }
  }

  /** The HeadroomConfig {@code cluster}: enforcing, with this cap. */
  static GenericKubernetesResource config(String maxMultiplier) {
    return new GenericKubernetesResourceBuilder().withApiVersion("kube-headroom.dev/v1alpha1")
        .withKind("HeadroomConfig").withNewMetadata().withName(HeadroomKeys.CONFIG_NAME).endMetadata()
        .addToAdditionalProperties("spec", Map.of("dryRun", false, "maxMultiplier", maxMultiplier)).build();
  }

  /** A running pod as the kubelet double leaves it (its status matches its spec: no kubelet write). */
  static Pod pod(SeededPod p) {
    Map<String, Quantity> requests = Map.of("cpu", new Quantity(p.requestMilli() + "m"), "memory", new Quantity("256Mi"));
    Map<String, Quantity> limits = p.limitMilli() > 0 ? Map.of("cpu", new Quantity(p.limitMilli() + "m")) : Map.of();
    return new PodBuilder()
        .withNewMetadata().withNamespace(p.namespace()).withName(p.name()).withUid("uid-" + p.name())
          .withLabels(Map.of("app", p.name().substring(0, p.name().lastIndexOf('-')))).endMetadata()
        .withNewSpec().withNodeName(p.node())
          .addNewContainer().withName(CONTAINER).withImage("registry.example/app:1").withNewResources()
            .withRequests(requests).withLimits(limits).endResources().endContainer()
        .endSpec()
        .withNewStatus().withPhase("Running").withQosClass("Burstable").withObservedGeneration(1L)
          .withContainerStatuses(new ContainerStatusBuilder().withName(CONTAINER).withReady(true).withStarted(true)
              .withRestartCount(0).withImage("registry.example/app:1").withImageID("")
              .withAllocatedResources(requests).withNewResources().withRequests(requests).withLimits(limits)
              .endResources().withNewState().withNewRunning().withStartedAt("2026-12-01T00:00:00Z").endRunning()
              .endState().build())
        .endStatus()
        .build();
  }
}
