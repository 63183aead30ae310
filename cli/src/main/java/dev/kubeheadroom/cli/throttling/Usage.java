package dev.kubeheadroom.cli.throttling;

/**
 * Quantiles of a container's CPU usage rate over the window's steps, in millicores (rounded to
 * the millicore, Kubernetes' CPU resolution). Nearest-rank quantiles: {@code pN} is a rate the
 * container actually had, and at least N% of the steps were at or below it.
 *
 * @param steps how many steps had a rate
 */
public record Usage(long p50Milli, long p95Milli, long p99Milli, long maxMilli, int steps) {}
