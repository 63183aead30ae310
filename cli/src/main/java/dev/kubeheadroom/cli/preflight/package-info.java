/**
 * {@code headroom preflight}: the runbook's preflight as code. {@link
 * dev.kubeheadroom.cli.preflight.ClusterReader} reads the cluster once (the only I/O; a list the
 * caller may not read becomes an unreadable {@link dev.kubeheadroom.cli.preflight.Listing});
 * each {@link dev.kubeheadroom.cli.preflight.Check} is a pure function of that {@link
 * dev.kubeheadroom.cli.preflight.Cluster} giving one {@link dev.kubeheadroom.cli.preflight.Result}
 * row: PASS, WARN (Headroom runs, some pods stay unmanaged or limits are bounded) or FAIL
 * (enforcement would break). Which namespaces are managed comes from the HeadroomConfig in force,
 * through the same {@code ConfigProjection} and {@code ClusterConfig.manages} the pipeline uses; a
 * refused or missing config leaves the defaults (dry-run) in force, as at run time.
 */
package dev.kubeheadroom.cli.preflight;
