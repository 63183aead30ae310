package dev.kubeheadroom.installed;

import dev.kubeheadroom.kubedouble.ApiServerDouble;

/** A ClusterIP Service's port routed to a local process (what kube-proxy does for the API server). */
final class ServiceRoutes {
  private ServiceRoutes() {}

  static void route(ApiServerDouble api, String namespace, String service, int port, int target) {
    // TODO(webhookchain): api.routeService(namespace, service, port, new InetSocketAddress(127.0.0.1, target))
  }
}
