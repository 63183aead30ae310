/**
 * The mutating admission webhook (docs/design/headroom-design.txt §6.5): seeds a CPU limit on pods at CREATE in managed
 * namespaces, so short-lived pods (CI, batch) and runtimes that size themselves at start get a
 * generous birth limit before the controller could ever reach them. Never blocks a pod. See
 * {@code webhook/DESIGN.md}.
 */
package dev.kubeheadroom.webhook;
