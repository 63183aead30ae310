package dev.kubeheadroom.cli;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;
import picocli.CommandLine.Option;

/** How a stage reaches Kubernetes: in-cluster, a kubeconfig, or an API URL. */
public final class KubeOptions {
  @Option(names = "--kubeconfig", paramLabel = "FILE", defaultValue = "${env:HEADROOM_KUBECONFIG}",
      description = "Kubeconfig file (default: in-cluster service account, else $KUBECONFIG or ~/.kube/config). "
          + "Env: HEADROOM_KUBECONFIG.")
  Path kubeconfig;

  @Option(names = "--kube-context", paramLabel = "NAME", defaultValue = "${env:HEADROOM_KUBE_CONTEXT}",
      description = "Kubeconfig context (default: the current one). Env: HEADROOM_KUBE_CONTEXT.")
  String context;

  @Option(names = "--kube-api-url", paramLabel = "URL", defaultValue = "${env:HEADROOM_KUBE_API_URL}",
      description = "API server URL, without credentials (for local doubles and tests). Env: HEADROOM_KUBE_API_URL.")
  String apiUrl;

  KubernetesClient client() {
    return client(config -> { });
  }

  /** A client whose configuration {@code tune} adjusts first (e.g. fewer retries for one-shot tools). */
  KubernetesClient client(Consumer<Config> tune) {
    Config config = config();
    tune.accept(config);
    return new KubernetesClientBuilder().withConfig(config).build();
  }

  /**
   * A fresh client configuration from these options, for a stage that builds its own client (the
   * actuator: {@code ActuatorClient}, fabric8's retries off).
   */
  Config config() {
    Config config;
    if (apiUrl != null && !apiUrl.isBlank()) {
      config = new ConfigBuilder().withMasterUrl(apiUrl).withTrustCerts(false).build();
    } else if (kubeconfig != null) {
      try {
        config = Config.fromKubeconfig(context, Files.readString(kubeconfig), kubeconfig.toString());
      } catch (IOException e) {
        throw new UserError("--kubeconfig " + kubeconfig + ": cannot read (" + e.getMessage() + ")");
      }
    } else {
      config = Config.autoConfigure(context);
    }
    return config;
  }

}
