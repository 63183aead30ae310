/**
 * The versioned records every stage shares, and their JSON serdes.
 *
 * <p>Records are JSON with a {@code schemaVersion} field; unknown fields are ignored on read, so an
 * old reader survives a newer writer. Node-keyed topics ({@code pods}, {@code nodes},
 * {@code outcomes}) carry {@link dev.kubeheadroom.schemas.NodeEvent}s; {@code decisions} carries
 * {@link dev.kubeheadroom.schemas.NodeDecision}s; {@code namespaces} and {@code config} are
 * compacted tables of {@link dev.kubeheadroom.schemas.NamespaceInfo} and
 * {@link dev.kubeheadroom.schemas.ClusterConfig}. A record that cannot be read raises a
 * {@link dev.kubeheadroom.schemas.SchemaException}, never a null.
 */
package dev.kubeheadroom.schemas;
