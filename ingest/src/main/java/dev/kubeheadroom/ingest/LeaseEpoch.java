package dev.kubeheadroom.ingest;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;

/**
 * The epoch a leader stamps on every node-keyed record ({@code NodeEvent.epoch}), so the topology
 * can drop the records of a superseded leader. Derived from the Lease this instance holds:
 *
 * <pre>epoch = creationTimestamp (epoch seconds) × 10⁶ + spec.leaseTransitions + 1</pre>
 *
 * {@code leaseTransitions} rises by one each time the Lease changes holder (fabric8's elector, as
 * client-go's, adds one on every acquisition by a new holder and keeps it on renewals and on
 * release), so each leadership has a higher count than the one before. A deleted and re-created
 * Lease starts counting at 0 again; its later creation second keeps the epoch rising, where a
 * plain count would fence the new leader's records forever. The {@code + 1} keeps an epoch from
 * ever being 0, which means "unfenced".
 */
final class LeaseEpoch {
  private static final long TRANSITIONS_PER_SECOND = 1_000_000L;

  private LeaseEpoch() {}

  static long of(Lease lease) {
    long transitions = 0;
    if (lease.getSpec() != null && lease.getSpec().getLeaseTransitions() != null) {
      transitions = Math.max(0, lease.getSpec().getLeaseTransitions());
    }
    long created = lease.getMetadata() == null ? 0 : createdSeconds(lease.getMetadata().getCreationTimestamp());
    return created * TRANSITIONS_PER_SECOND + Math.min(transitions, TRANSITIONS_PER_SECOND - 2) + 1;
  }

  private static long createdSeconds(String timestamp) {
    if (timestamp == null || timestamp.isEmpty()) {
      return 0;
    }
    try {
      return Math.max(0, OffsetDateTime.parse(timestamp).toEpochSecond());
    } catch (DateTimeParseException e) {
      return 0; // any object the API server accepts is valid: fall back to the count alone
    }
  }
}
