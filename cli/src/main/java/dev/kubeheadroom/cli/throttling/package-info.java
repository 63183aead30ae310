/**
 * {@code headroom explain NS/POD --prometheus URL}: the throttling what-if (design §8.1). {@link
 * dev.kubeheadroom.cli.throttling.PrometheusClient} is the only I/O (the Prometheus HTTP API);
 * {@link dev.kubeheadroom.cli.throttling.ThrottlingQueries} turns the pod's cAdvisor series into
 * one {@link dev.kubeheadroom.cli.throttling.ContainerSeries} per container; {@link
 * dev.kubeheadroom.cli.throttling.ThrottleWhatIf} is a pure function of those and the limits
 * Headroom gave, giving the figures {@link dev.kubeheadroom.cli.throttling.WhatIfReport} prints.
 */
package dev.kubeheadroom.cli.throttling;
