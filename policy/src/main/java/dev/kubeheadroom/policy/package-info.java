/**
 * The Headroom policy: a pure function of one node's booking.
 *
 * <p>Every quantity is an integer number of CPU millicores (suffix {@code Milli}); ratios are
 * {@code double}. Nothing here reads a clock, does I/O, or knows about Kafka or Kubernetes, so the
 * same inputs give the same decisions byte for byte, which is what replay and audit rely on.
 * The arithmetic is normative in {@code docs/design/policy.md}; docs/design/headroom-design.txt §5.
 */
package dev.kubeheadroom.policy;
