package dev.kubeheadroom.ingest;

import io.fabric8.kubernetes.api.model.APIResourceList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.concurrent.CompletionException;

/**
 * Whether the API server serves an optional kind (a CRD that may not be installed: the VPA's,
 * or Headroom's own HeadroomConfig before the chart installed it). Absent APIs must not break
 * start-up; they only switch off what depends on them.
 */
final class ApiDiscovery {
  private ApiDiscovery() {}

  /**
   * True when discovery of {@code apiVersion} lists {@code kind}. A failed discovery other than
   * 404 answers true: the informer then finds out for itself (see {@link #isNotFound}).
   */
  static boolean serves(KubernetesClient client, String apiVersion, String kind) {
    try {
      APIResourceList resources = client.getApiResources(apiVersion);
      return resources != null && resources.getResources() != null
          && resources.getResources().stream().anyMatch(r -> kind.equals(r.getKind()));
    } catch (KubernetesClientException e) {
      return e.getCode() != 404;
    }
  }

  /** Whether an informer's failure is the API server saying the resource does not exist. */
  static boolean isNotFound(Throwable t) {
    while (t instanceof CompletionException && t.getCause() != null) {
      t = t.getCause();
    }
    for (Throwable c = t; c != null; c = c.getCause()) {
      if (c instanceof KubernetesClientException k && k.getCode() == 404) {
        return true;
      }
      if (c.getCause() == c) {
        break;
      }
    }
    return false;
  }
}
