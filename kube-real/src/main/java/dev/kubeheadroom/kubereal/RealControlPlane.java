package dev.kubeheadroom.kubereal;

import io.fabric8.kubeapitest.KubeAPIServer;
import io.fabric8.kubeapitest.KubeAPIServerConfigBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real kube-apiserver with its etcd, started from the binaries {@link ControlPlaneBinaries}
 * names, through fabric8's kube-api-test (which writes the certificates, starts etcd on a free
 * port, the server on another, and waits for {@code /readyz}).
 *
 * <p>What it runs with, beyond kube-api-test's own flags ({@code --authorization-mode=RBAC}, a
 * ServiceAccount issuer and signing key, so TokenRequest works): the admission plugins a real
 * cluster has on, named explicitly, and an audit log at {@code Metadata} level, which tests read
 * as the server's own record of every call each identity made. kube-api-test disables the
 * {@code ServiceAccount} admission plugin: with no controller-manager nothing creates a
 * namespace's {@code default} ServiceAccount, and that plugin refuses pods without one. No
 * controller-manager, scheduler or kubelet runs: tests bind pods with {@code spec.nodeName} and
 * write status as a kubelet would (the node agent).
 */
public final class RealControlPlane implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(RealControlPlane.class);

  /** The admission plugins named on the command line (all default-on in a real cluster). */
  public static final List<String> ADMISSION_PLUGINS = List.of(
      "NamespaceLifecycle", "LimitRanger", "TaintNodesByCondition", "PodSecurity", "Priority",
      "DefaultTolerationSeconds", "RuntimeClass", "MutatingAdmissionWebhook",
      "ValidatingAdmissionPolicy", "ValidatingAdmissionWebhook", "ResourceQuota");

  private final ControlPlaneBinaries binaries;
  private final KubeAPIServer server;
  private final Config adminConfig;
  private final KubernetesClient admin;
  private final Path auditLog;
  private final ServiceAccountTokens tokens;
  private final EtcdCompactor etcd;

  private RealControlPlane(ControlPlaneBinaries binaries, KubeAPIServer server, Path auditLog) {
    this.binaries = binaries;
    this.server = server;
    this.auditLog = auditLog;
    this.etcd = EtcdCompactor.find(binaries);
    this.adminConfig = Config.fromKubeconfig(server.getKubeConfigYaml());
    this.admin = new KubernetesClientBuilder().withConfig(adminConfig).build();
    this.tokens = new ServiceAccountTokens(admin, url(), caCertData());
  }

  /** Starts a fresh control plane (empty etcd); the caller closes it. */
  public static RealControlPlane start(ControlPlaneBinaries binaries) {
    Path work;
    try {
      work = Files.createTempDirectory("headroom-kube-real");
      Files.writeString(work.resolve("audit-policy.yaml"), """
          apiVersion: audit.k8s.io/v1
          kind: Policy
          omitStages: [RequestReceived]
          rules:
          - level: Metadata
          """);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Path auditLog = work.resolve("audit.log");
    KubeAPIServer server = new KubeAPIServer(KubeAPIServerConfigBuilder.anAPIServerConfig()
        .withTestDir(binaries.cache().toString())
        .withApiServerVersion(binaries.version())
        .withOfflineMode(true)
        .withUpdateKubeConfig(false)
        .withStartupTimeout(120_000)
        .withApiServerFlag("--enable-admission-plugins", String.join(",", ADMISSION_PLUGINS))
        .withApiServerFlag("--audit-policy-file", work.resolve("audit-policy.yaml").toString())
        .withApiServerFlag("--audit-log-path", auditLog.toString())
        .withApiServerFlag("--audit-log-format", "json")
        .withApiServerFlag("--audit-log-mode", "blocking")
        .build());
    long begin = System.nanoTime();
    server.start();
    RealControlPlane started = new RealControlPlane(binaries, server, auditLog);
    LOG.info("{} ready in {} ms (etcd and server started, /readyz answered)", started,
        (System.nanoTime() - begin) / 1_000_000);
    return started;
  }

  public ControlPlaneBinaries binaries() {
    return binaries;
  }

  /** The server's URL ({@code https://127.0.0.1:PORT}). */
  public String url() {
    return adminConfig.getMasterUrl();
  }

  /** An admin client ({@code system:masters}); shared, do not close. */
  public KubernetesClient client() {
    return admin;
  }

  /** The admin's client configuration (a client certificate in {@code system:masters}). */
  public Config adminConfig() {
    return adminConfig;
  }

  /** The admin kubeconfig, as kube-api-test wrote it. */
  public String adminKubeconfig() {
    return server.getKubeConfigYaml();
  }

  /** The audit log: one JSON event per line, every request the server answered. */
  public Path auditLog() {
    return auditLog;
  }

  /**
   * Compacts etcd at its current revision, as the API server's own compactor does every five
   * minutes ({@code --etcd-compaction-interval}): a LIST {@code continue} token or a watch
   * served by etcd from an older resourceVersion then gets 410. Returns the revision compacted at.
   */
  public long compactEtcd() {
    return etcd.compactNow();
  }

  /**
   * A bearer token for ServiceAccount {@code namespace/name}, issued by the server's TokenRequest
   * API (creating the ServiceAccount when it is missing); one per account, valid for an hour.
   */
  public String serviceAccountToken(String namespace, String name) {
    return tokens.token(namespace, name);
  }

  /** A client configuration that authenticates as ServiceAccount {@code namespace/name}. */
  public Config configAs(String namespace, String name) {
    return new ConfigBuilder(Config.empty())
        .withMasterUrl(url())
        .withCaCertData(caCertData())
        .withOauthToken(serviceAccountToken(namespace, name))
        .withNamespace(namespace)
        .build();
  }

  /** A new client as ServiceAccount {@code namespace/name}; the caller closes it. */
  public KubernetesClient clientAs(String namespace, String name) {
    return new KubernetesClientBuilder().withConfig(configAs(namespace, name)).build();
  }

  /** Writes a kubeconfig file that authenticates as ServiceAccount {@code namespace/name}. */
  public Path writeKubeconfig(String namespace, String name, Path file) {
    return tokens.writeKubeconfig(namespace, name, file);
  }

  /** The server's CA, base64 PEM (kube-api-test's kubeconfig names a file, or inlines it). */
  public String caCertData() {
    if (adminConfig.getCaCertData() != null && !adminConfig.getCaCertData().isBlank()) {
      return adminConfig.getCaCertData();
    }
    try {
      return Base64.getEncoder().encodeToString(Files.readAllBytes(Path.of(adminConfig.getCaCertFile())));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() {
    admin.close();
    server.stop();
  }

  @Override
  public String toString() {
    return "kube-apiserver v" + binaries.version() + " at " + url();
  }
}
