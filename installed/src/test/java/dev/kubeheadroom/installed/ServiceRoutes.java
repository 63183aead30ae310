package dev.kubeheadroom.installed;

import dev.kubeheadroom.kubedouble.ApiServerDouble;
import java.net.InetSocketAddress;

/**
 * A ClusterIP Service's port routed to a local process: what kube-proxy does for the API server
 * when it calls a webhook through {@code clientConfig.service} (the Service's ready endpoint is
 * the replica's pod IP; here, its loopback port).
 */
final class ServiceRoutes {
  private ServiceRoutes() {}

  static void route(ApiServerDouble api, String namespace, String service, int port, int target) {
    api.routeService(namespace, service, port, new InetSocketAddress("127.0.0.1", target));
  }
}
