package dev.kubeheadroom.kubedouble;

import java.net.InetSocketAddress;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Where a Service port is served: the double's stand-in for a Service and its endpoints, so a
 * webhook's {@code clientConfig.service} reaches a server a test started on an ephemeral port.
 */
final class ServiceRoutes {
  private record Key(String namespace, String name, int port) {}

  private final Map<Key, InetSocketAddress> routes = new ConcurrentHashMap<>();

  void route(String namespace, String name, int port, InetSocketAddress target) {
    routes.put(new Key(namespace, name, port), Objects.requireNonNull(target, "target"));
  }

  void remove(String namespace, String name, int port) {
    routes.remove(new Key(namespace, name, port));
  }

  Optional<InetSocketAddress> resolve(String namespace, String name, int port) {
    return Optional.ofNullable(routes.get(new Key(namespace, name, port)));
  }
}
