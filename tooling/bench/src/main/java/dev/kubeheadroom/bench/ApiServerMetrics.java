package dev.kubeheadroom.bench;

import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * Two figures from a kube-apiserver's own {@code /metrics}: the watches it holds open
 * ({@code apiserver_longrunning_requests{verb="WATCH"}}, summed) and its resident memory
 * ({@code process_resident_memory_bytes}).
 */
record ApiServerMetrics(long watches, long residentBytes) {

  static ApiServerMetrics scrape(KubernetesClient admin) {
    long watches = 0;
    long resident = 0;
    for (String line : admin.raw("/metrics").split("\n")) {
      if (line.startsWith("apiserver_longrunning_requests{") && line.contains("verb=\"WATCH\"")) {
        watches += (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
      } else if (line.startsWith("process_resident_memory_bytes ")) {
        resident = (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
      }
    }
    return new ApiServerMetrics(watches, resident);
  }
}
