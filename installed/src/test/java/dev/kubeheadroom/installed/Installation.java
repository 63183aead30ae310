package dev.kubeheadroom.installed;

import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ServiceReference;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.awaitility.core.ConditionTimeoutException;

/**
 * One Helm release of the operator chart installed into a {@link Cluster}: rendered, applied to
 * its API server (the chart's objects plus what cert-manager would add), and every replica of
 * every rendered Deployment running as its own process, as its ServiceAccount.
 */
final class Installation implements AutoCloseable {
  /** Generous: five JVMs starting at once on two cores shared with other builds. */
  static final Duration STARTUP = Duration.ofSeconds(360);
  /** The chart's default release name and namespace (runbook). */
  static final String RELEASE = "kube-headroom";
  static final String NAMESPACE = "kube-headroom-system";
  /** The ServiceAccount the tier scrapes as: Prometheus's, bound to the chart's metrics-reader role. */
  static final String SCRAPER = "prometheus";

  final Cluster cluster;
  final String release;
  final String namespace;
  final List<HasMetadata> objects;
  private Duration startup = Duration.ZERO;
  private final List<StageProcess> processes = new ArrayList<>();

  private Installation(Cluster cluster, String release, String namespace, List<HasMetadata> objects) {
    this.cluster = cluster;
    this.release = release;
    this.namespace = namespace;
    this.objects = objects;
  }

  /**
   * The values a test cluster needs on top of the chart's defaults: the embedded broker, one
   * replica per partition (a single broker), a small partition count (fewer tasks to start).
   */
  static Map<String, Object> testValues(String bootstrapServers) {
    Map<String, Object> values = new LinkedHashMap<>();
    values.put("kafka.bootstrapServers", bootstrapServers);
    values.put("kafka.topics.replicationFactor", 1);
    values.put("kafka.topics.partitions", 2);
    // One replica of each stateless-by-Kafka stage: eight JVMs (the default 2+2+2+2) do not start
    // within minutes on two shared cores. Ingest keeps its two replicas: the Lease is under test.
    values.put("topology.replicas", 1);
    values.put("actuator.replicas", 1);
    values.put("webhook.replicas", 1);
    return values;
  }

  /** Renders, applies and starts the release; returns once every replica is ready. */
  static Installation install(Cluster cluster, Path dir, String release, String namespace, Map<String, Object> values) {
    Instant started = Instant.now();
    List<HasMetadata> objects = Chart.render(release, namespace, values);
    Manifests manifests = new Manifests(objects);
    // cert-manager's part: the Certificate the webhook configuration's CA is injected from, issued.
    Optional<Manifests.Certificate> certificate = manifests.injectedCertificate();
    Optional<WebhookCertificates.Issued> certs = certificate.map(c -> WebhookCertificates.issue(c.dnsNames(),
        cluster.backend.webhookAddresses()));
    new ClusterApply(cluster.backend).apply(namespace, objects, certs.map(WebhookCertificates.Issued::caPem));

    PodPlanner planner = new PodPlanner(namespace, dir.resolve(release),
        cluster.backend::writeKubeconfig, (volume, path) -> fill(cluster, namespace, volume, path, certificate, certs));
    Installation installation = new Installation(cluster, release, namespace, objects);
    try {
      for (Deployment deployment : manifests.deployments()) {
        for (int i = 0; i < deployment.getSpec().getReplicas(); i++) {
          installation.processes.add(StageProcess.start(planner.plan(deployment, i)));
        }
      }
      installation.awaitReady();
      installation.routeWebhook(manifests);
      if (!installation.processes.stream().allMatch(StageProcess::alive)) {
        throw new AssertionError("a replica exited once ready:" + installation.outputs());
      }
    } catch (RuntimeException | Error e) {
      installation.close();
      throw e;
    }
    installation.startup = Duration.between(started, Instant.now());
    return installation;
  }

  /** From rendering to every replica ready. */
  Duration startup() {
    return startup;
  }

  /**
   * A volume as the kubelet mounts it: the issued certificate's Secret, another Secret's keys
   * from the server (e.g. a user's {@code kafka.clientProperties} Secret, created before the
   * install as the runbook says), other volumes empty.
   */
  private static void fill(Cluster cluster, String namespace, Volume volume, Path dir,
      Optional<Manifests.Certificate> certificate, Optional<WebhookCertificates.Issued> certs) {
    if (volume.getSecret() == null) {
      return;
    }
    String name = volume.getSecret().getSecretName();
    if (certificate.isPresent() && certs.isPresent() && name.equals(certificate.get().secretName())) {
      certs.get().writeTo(dir);
      return;
    }
    Secret secret = cluster.admin().secrets().inNamespace(namespace).withName(name).get();
    if (secret == null || secret.getData() == null) {
      throw new IllegalStateException("no contents for Secret volume " + name + " in " + namespace);
    }
    secret.getData().forEach((key, base64) -> {
      try {
        Files.write(dir.resolve(key), Base64.getDecoder().decode(base64));
      } catch (IOException e) {
        throw new UncheckedIOException("cannot mount key " + key + " of Secret " + name, e);
      }
    });
  }

  private void awaitReady() {
    try {
      // A replica that exits is not restarted (no kubelet): the release failed to start.
      await("every replica ready").atMost(STARTUP).pollInterval(Duration.ofMillis(500))
          .failFast("a replica exited", () -> processes.stream().anyMatch(p -> !p.alive()))
          .until(() -> processes.stream().allMatch(StageProcess::ready));
    } catch (ConditionTimeoutException | org.awaitility.core.TerminalFailureException e) {
      throw new AssertionError("the release " + release + " did not become ready: " + e.getMessage()
          + "\n" + outputs(), e);
    }
  }

  /**
   * The webhook Service routed to a replica serving the webhook (what kube-proxy does for a
   * ClusterIP Service with a ready endpoint; see {@link ClusterBackend#routeWebhook}).
   */
  private void routeWebhook(Manifests manifests) {
    manifests.webhookServices(namespace).forEach((configuration, service) -> {
      StageProcess target = processes.stream().filter(p -> p.plan().ports().containsKey("webhook"))
          .findFirst().orElseThrow(() -> new IllegalStateException("no replica serves the webhook"));
      cluster.backend.routeWebhook(configuration, service, target.port("webhook"));
    });
  }

  /** No kubelet restarts a replica here: one that exited fails the test, with every replica's output. */
  void assertEveryReplicaRuns() {
    org.assertj.core.api.Assertions.assertThat(processes()).as("replicas that exited:%s", outputs())
        .allMatch(StageProcess::alive);
  }

  List<StageProcess> processes() {
    synchronized (processes) {
      return List.copyOf(processes);
    }
  }

  /** The replica named {@code podName} (e.g. {@code kube-headroom-actuator-0}). */
  StageProcess process(String podName) {
    return processes().stream().filter(p -> p.podName().equals(podName)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no replica " + podName + " in " + processes()));
  }

  /** Starts an exited replica again in its place, as the kubelet would ({@code restartPolicy: Always}). */
  StageProcess restart(StageProcess exited) {
    StageProcess fresh = exited.restarted();
    synchronized (processes) {
      processes.set(processes.indexOf(exited), fresh);
    }
    return fresh;
  }

  /** The chart's full name ({@code kube-headroom.fullname}): the prefix of every object's name. */
  /** A bearer token of {@link #SCRAPER}, for {@code /metrics}. */
  String scraperToken() {
    return cluster.backend.serviceAccountToken(namespace, SCRAPER);
  }

  String fullname() {
    return release.contains("kube-headroom") ? release : release + "-kube-headroom";
  }

  /** The ServiceAccounts (names, in {@link #namespace}) the release's pods run as. */
  List<String> serviceAccountNames() {
    return processes().stream().map(p -> p.plan().serviceAccount()).distinct().toList();
  }

  /** Every process's last lines, for a failure message. */
  String outputs() {
    StringBuilder out = new StringBuilder();
    for (StageProcess p : processes()) {
      out.append("\n===== ").append(p.podName()).append(p.alive() ? "" : " (exited " + p.exitCode() + ")")
          .append(" (").append(p.plan().log()).append(") =====\n")
          .append(p.tail(80)).append('\n');
    }
    return out.toString();
  }

  /**
   * Stops every replica; on a server other classes share, also what {@code helm uninstall} does:
   * deletes the release's objects (cluster-scoped ones would otherwise clash with the next
   * release of the same name, and its webhook would be called at a dead port), and the Leases
   * its replicas took. The release namespace stays, as helm leaves it.
   */
  @Override
  public void close() {
    processes().forEach(StageProcess::close);
    if (cluster.backend.sharedByClasses()) {
      ClusterApply.uninstall(cluster.admin(), objects);
      cluster.admin().leases().inNamespace(namespace).delete();
    }
  }

  /** Typed look-ups in a rendering. */
  record Manifests(List<HasMetadata> objects) {
    /** A cert-manager Certificate: the Secret it writes and the names it is issued for. */
    record Certificate(String name, String secretName, List<String> dnsNames) {}

    /**
     * The Certificate named by the webhook configuration's {@code cert-manager.io/inject-ca-from}
     * annotation ({@code namespace/name}), whose CA cert-manager's CA injector copies into the
     * {@code caBundle}.
     */
    @SuppressWarnings("unchecked")
    Optional<Certificate> injectedCertificate() {
      Optional<String> from = objects.stream().filter(MutatingWebhookConfiguration.class::isInstance)
          .map(o -> o.getMetadata().getAnnotations())
          .filter(a -> a != null && a.containsKey(ClusterApply.INJECT_CA_FROM))
          .map(a -> a.get(ClusterApply.INJECT_CA_FROM).split("/", 2)[1]).findFirst();
      return from.flatMap(name -> objects.stream().filter(GenericKubernetesResource.class::isInstance)
          .map(GenericKubernetesResource.class::cast)
          .filter(r -> "Certificate".equals(r.getKind()) && name.equals(r.getMetadata().getName()))
          .findFirst()
          .map(r -> {
            Map<String, Object> spec = (Map<String, Object>) r.getAdditionalProperties().get("spec");
            return new Certificate(name, (String) spec.get("secretName"), (List<String>) spec.get("dnsNames"));
          }));
    }

    List<Deployment> deployments() {
      return objects.stream().filter(Deployment.class::isInstance).map(Deployment.class::cast).toList();
    }

    /** Each webhook configuration's name → the Service in {@code namespace} it calls. */
    Map<String, ServiceReference> webhookServices(String namespace) {
      Map<String, ServiceReference> out = new LinkedHashMap<>();
      objects.stream().filter(MutatingWebhookConfiguration.class::isInstance)
          .map(MutatingWebhookConfiguration.class::cast)
          .forEach(c -> c.getWebhooks().stream().map(w -> w.getClientConfig().getService())
              .filter(s -> s != null && namespace.equals(s.getNamespace())).findFirst()
              .ifPresent(s -> out.put(c.getMetadata().getName(), s)));
      return out;
    }
  }
}
