package dev.kubeheadroom.ingest;

import dev.kubeheadroom.projection.ClusterProjector;
import dev.kubeheadroom.projection.ProjectionException;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** One object through the projector, counted the same way for every kind. */
final class Projected {
  private static final Logger LOG = LoggerFactory.getLogger(Projected.class);

  private Projected() {}

  /**
   * Runs {@code projection}; an object that cannot be projected is logged and counted as invalid
   * (nothing is published for it), and one an informer event named that changed nothing as churn.
   *
   * @param countChurn whether an informer event named the object (not a re-publish)
   */
  static void counted(IngestMetrics metrics, String kind, boolean countChurn,
      Supplier<ClusterProjector.Outcome> projection) {
    ClusterProjector.Outcome outcome;
    try {
      outcome = projection.get();
    } catch (ProjectionException e) {
      metrics.invalid(kind);
      LOG.warn("not published: {}", e.getMessage());
      return;
    }
    if (outcome == ClusterProjector.Outcome.UNCHANGED && countChurn) {
      metrics.churn(kind);
    }
  }
}
