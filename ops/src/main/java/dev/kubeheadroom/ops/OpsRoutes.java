package dev.kubeheadroom.ops;

import com.sun.net.httpserver.HttpHandler;

/** Where a stage adds an endpoint of its own to the process's metrics server. */
@FunctionalInterface
public interface OpsRoutes {
  /** No server (the demo, tests without one): routes go nowhere. */
  OpsRoutes NONE = (path, handler) -> {};

  void route(String path, HttpHandler handler);
}
