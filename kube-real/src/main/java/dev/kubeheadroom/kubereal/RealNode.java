package dev.kubeheadroom.kubereal;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A one-node cluster on this machine with a real kubelet, containerd and runc, as
 * {@code tools/real-node/start} starts it and {@code tools/real-node/stop} stops it (profile
 * {@code real-node}; docs/testing-against-kubernetes.md, "A real node").
 *
 * @param kubeconfig the admin kubeconfig the start script printed
 * @param scripts the {@code tools/real-node} directory
 */
public record RealNode(Path kubeconfig, Path scripts) implements AutoCloseable {

  /** The node the kubelet registers (lib.sh's {@code NODE}). */
  public static final String NODE = "headroom-real-node";

  /** The kubelet's port on 127.0.0.1 (lib.sh's {@code KUBELET_PORT}). */
  public static final int KUBELET_PORT = 20250;

  /** The images the start script built and imported: no registry is reached. */
  public static final String BUSY_LOOP_IMAGE = "headroom.local/busyloop:1";

  /** The start script's exit code for "this machine cannot run a node" (its one line says why). */
  private static final int CANNOT_RUN_HERE = 3;

  /**
   * Starts the node (or finds it running) and waits until it is Ready; skips the calling test with
   * the script's one line where this machine cannot run it (not root, no cgroup cpu controller,
   * containerd or runc missing); on CI ({@code CI=true}) fails with it instead.
   */
  public static RealNode start() {
    Path scripts = findScripts();
    Output out = run(scripts.resolve("start"));
    if (out.exit() == CANNOT_RUN_HERE) {
      ControlPlaneBinaries.skipOrFailOnCi(out.lastLine());
    }
    if (out.exit() != 0) {
      throw new IllegalStateException("tools/real-node/start failed (exit " + out.exit() + "):\n"
          + out.text());
    }
    return new RealNode(Path.of(out.lastLine()), scripts);
  }

  /** An admin client (system:masters) of the node's API server. */
  public KubernetesClient client() {
    try {
      String text = Files.readString(kubeconfig);
      return new KubernetesClientBuilder().withConfig(Config.fromKubeconfig(text)).build();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * A text endpoint of the kubelet itself, e.g. {@code /metrics/cadvisor}, read as the admin (the
   * kubelet authorizes it through the API server). Its serving certificate is self-signed.
   */
  public String kubeletGet(String path) {
    try {
      Config config = Config.fromKubeconfig(Files.readString(kubeconfig));
      config.setMasterUrl("https://127.0.0.1:" + KUBELET_PORT);
      config.setTrustCerts(true);
      try (KubernetesClient kubelet = new KubernetesClientBuilder().withConfig(config).build()) {
        return kubelet.raw("https://127.0.0.1:" + KUBELET_PORT + path);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The node's directory ({@code $HEADROOM_REAL_NODE_DIR}): the kubeconfig's. */
  private Path dir() {
    return kubeconfig.getParent();
  }

  /**
   * The API server's audit log (level Metadata, JSON, one event per line): every request it
   * answered, who made it and what it answered.
   */
  public Path auditLog() {
    return dir().resolve("logs/audit.log");
  }

  /** ServiceAccount tokens and kubeconfigs from the node's API server, {@code admin} creating them. */
  public ServiceAccountTokens serviceAccounts(KubernetesClient admin) {
    try {
      return new ServiceAccountTokens(admin, admin.getMasterUrl().toString().replaceAll("/$", ""),
          Base64.getEncoder().encodeToString(Files.readAllBytes(dir().resolve("pki/ca.crt"))));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * A Prometheus scrape job (an item of {@code scrape_configs}, indented two spaces) for the
   * kubelet's {@code /metrics/cadvisor}, as a cluster's Prometheus scrapes its kubelets: over the
   * kubelet's TLS port, as a client the kubelet authorizes through the API server (here the
   * admin's certificate; in a cluster, Prometheus' ServiceAccount token with {@code nodes/metrics}).
   * The kubelet's read-only port stays off (its config): it would serve the same data to anyone.
   */
  public String cadvisorScrapeJob() {
    Path pki = dir().resolve("pki");
    return """
          - job_name: kubelet-cadvisor
            scheme: https
            metrics_path: /metrics/cadvisor
            # the kubelet's serving certificate is self-signed
            tls_config: {insecure_skip_verify: true, cert_file: %s, key_file: %s}
            static_configs: [{targets: ['127.0.0.1:%d']}]
        """.formatted(pki.resolve("admin.crt"), pki.resolve("admin.key"), KUBELET_PORT);
  }

  /** Stops everything the start script started; the logs stay in the node's directory. */
  @Override
  public void close() {
    Output out = run(scripts.resolve("stop"));
    if (out.exit() != 0) {
      throw new IllegalStateException("tools/real-node/stop failed:\n" + out.text());
    }
  }

  private record Output(int exit, String text) {
    String lastLine() {
      List<String> lines = text.strip().lines().toList();
      return lines.isEmpty() ? "" : lines.get(lines.size() - 1);
    }
  }

  private static Output run(Path script) {
    try {
      Path log = Files.createTempFile("real-node-", ".log");
      Process p = new ProcessBuilder(script.toString()).redirectErrorStream(true)
          .redirectOutput(log.toFile()).start();
      // A cold start builds the kubelet first (minutes); a warm one takes seconds.
      if (!p.waitFor(30, TimeUnit.MINUTES)) {
        p.destroyForcibly();
        throw new IllegalStateException(script + " did not finish within 30 minutes");
      }
      String text = Files.readString(log, StandardCharsets.UTF_8);
      Files.delete(log);
      return new Output(p.exitValue(), text);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static Path findScripts() {
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      Path candidate = dir.resolve("tools/real-node");
      if (Files.isExecutable(candidate.resolve("start"))) {
        return candidate;
      }
    }
    throw new IllegalStateException("tools/real-node/start not found above " + Path.of("").toAbsolutePath());
  }
}
