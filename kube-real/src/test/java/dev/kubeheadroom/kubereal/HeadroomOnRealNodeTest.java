package dev.kubeheadroom.kubereal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Headroom itself ({@code headroom run}, the operator jar, embedded Kafka) driving the real
 * kubelet: the incumbent's limit climbs to the node, a neighbour shrinks it, and each time the
 * container's CFS quota follows in place. Needs {@code cli/target/headroom-operator.jar}
 * ({@code mvn -pl cli -am package -DskipTests}); skips with one line without it.
 */
@Tag("real-node")
class HeadroomOnRealNodeTest {
  private static final String NS = "headroom-managed";

  @Test
  void aNeighbourShrinksTheIncumbentAndTheQuotaFollows(@TempDir Path work) throws Exception {
    Path repo = Path.of("").toAbsolutePath();
    while (!Files.isDirectory(repo.resolve("deploy/crds"))) {
      repo = repo.getParent();
    }
    Path jar = repo.resolve("cli/target/headroom-operator.jar");
    Assumptions.assumeTrue(Files.isRegularFile(jar),
        jar + " not built (mvn -pl cli -am package -DskipTests); skipped");
    try (RealNode node = RealNode.start(); KubernetesClient client = node.client()) {
      client.load(Files.newInputStream(repo.resolve("deploy/crds/headroomconfigs.kube-headroom.dev.yaml")))
          .serverSideApply();
      // The webhook is off: the API server has no route to it here, so the pod is created with
      // the limit a birth limit would have given it.
      String config = Files.readString(repo.resolve("deploy/samples/headroomconfig-cluster.yaml"))
          .replace("dryRun: true", "dryRun: false").replace("webhook: {enabled: true", "webhook: {enabled: false");
      await().atMost(Duration.ofSeconds(30)).ignoreExceptions()
          .until(() -> client.load(new java.io.ByteArrayInputStream(config.getBytes())).serverSideApply() != null);
      client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(NS)
          .addToLabels("kube-headroom.dev/mode", "managed").endMetadata().build()).serverSideApply();
      client.resource(BusyLoopPod.of(NS, "incumbent", "200m", "400m")).create();
      Pod running = awaitPod(client, "incumbent", p -> status(p) != null && status(p).getState().getRunning() != null);
      String id = BusyLoopPod.containerId(running);
      CpuCgroup cgroup = await().atMost(Duration.ofSeconds(30))
          .until(() -> CpuCgroup.ofContainer(id), java.util.Optional::isPresent).orElseThrow();

      Process headroom = new ProcessBuilder("java", "-jar", jar.toString(), "run",
          "--kubeconfig", node.kubeconfig().toString(), "--data-dir", work.resolve("data").toString(),
          "--health-port", "28081", "--metrics-port", "28443", "--metrics-secure", "false",
          "--leader-election-namespace", "default")
          .redirectErrorStream(true).redirectOutput(work.resolve("headroom.log").toFile()).start();
      try {
        long allocatable = millicores(client.nodes().withName(RealNode.NODE).get().getStatus().getAllocatable().get("cpu"));
        long alone = awaitQuota(cgroup, client, "incumbent", q -> q > 400);
        System.out.println("MEASURED real node, Headroom: the lone incumbent's limit " + alone + "m, quota "
            + cgroup.quota() + " (node allocatable " + allocatable + "m)");

        long created = System.nanoTime();
        Pod neighbour = BusyLoopPod.of(NS, "neighbour", "200m", "400m");
        neighbour.getSpec().getContainers().get(0).setCommand(List.of("/bin/busybox", "sleep", "3600"));
        client.resource(neighbour).create();
        long shrunk = awaitQuota(cgroup, client, "incumbent", q -> q < alone);
        System.out.println("MEASURED real node, Headroom: neighbour created -> incumbent's quota "
            + cgroup.quota() + " (limit " + shrunk + "m) in " + (System.nanoTime() - created) / 1_000_000 + " ms");

        long deleted = System.nanoTime();
        client.pods().inNamespace(NS).withName("neighbour").delete();
        long grown = awaitQuota(cgroup, client, "incumbent", q -> q > shrunk);
        System.out.println("MEASURED real node, Headroom: neighbour deleted -> incumbent's quota "
            + cgroup.quota() + " (limit " + grown + "m) in " + (System.nanoTime() - deleted) / 1_000_000 + " ms");

        Pod after = client.pods().inNamespace(NS).withName("incumbent").get();
        assertThat(status(after).getRestartCount()).isZero();
        assertThat(BusyLoopPod.containerId(after)).isEqualTo(id);
        assertThat(grown).isEqualTo(alone);
      } finally {
        headroom.destroy();
        if (!headroom.waitFor(30, TimeUnit.SECONDS)) {
          headroom.destroyForcibly().waitFor();
        }
      }
    }
  }

  /** Waits until the API's limit, the kubelet's status and the cgroup agree on a value that passes. */
  private static long awaitQuota(CpuCgroup cgroup, KubernetesClient client, String pod,
      java.util.function.LongPredicate wanted) {
    return await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(100)).until(() -> {
      Pod p = client.pods().inNamespace(NS).withName(pod).get();
      long spec = millicores(p.getSpec().getContainers().get(0).getResources().getLimits().get("cpu"));
      long shown = millicores(status(p).getResources().getLimits().get("cpu"));
      return spec == shown && cgroup.quota().millicores() == spec && wanted.test(spec) ? spec : -1L;
    }, v -> v >= 0);
  }

  private static long millicores(Quantity q) {
    return q.getNumericalAmount().movePointRight(3).longValueExact();
  }

  private static ContainerStatus status(Pod p) {
    return p.getStatus() == null || p.getStatus().getContainerStatuses() == null
        || p.getStatus().getContainerStatuses().isEmpty() ? null : p.getStatus().getContainerStatuses().get(0);
  }

  private static Pod awaitPod(KubernetesClient client, String name, java.util.function.Predicate<Pod> until) {
    return await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(200))
        .until(() -> client.pods().inNamespace(NS).withName(name).get(), p -> p != null && until.test(p));
  }
}
