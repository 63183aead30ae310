/**
 * Kubernetes objects (fabric8 model) to Headroom records ({@code dev.kubeheadroom.schemas}): the
 * single projection shared by ingest and {@code simulate}. All CPU amounts are integer millicores.
 * See {@code projection/DESIGN.md}.
 */
package dev.kubeheadroom.projection;
