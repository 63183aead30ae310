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
 *
 * <p>The wire shapes are this package's own records, independent of the policy's types: a
 * decision carries {@link dev.kubeheadroom.schemas.DecisionConfig},
 * {@link dev.kubeheadroom.schemas.DecisionStats}, {@link dev.kubeheadroom.schemas.DecisionInput}
 * and {@link dev.kubeheadroom.schemas.ContainerChange}, mapped from the policy's types where the
 * topology builds it and back where replay re-runs the policy ({@code of} / {@code toPolicy}), so
 * renaming a policy field cannot silently change a topic's format. Each record type has a golden
 * JSON file per format revision ({@code src/test/resources/golden}, {@code GoldenFormatTest}):
 * today's bytes must match exactly, and every older revision must still read.
 */
package dev.kubeheadroom.schemas;
