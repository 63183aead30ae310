package dev.kubeheadroom.ingest;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaderElectionRecord;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.Lock;
import java.time.ZonedDateTime;
import java.util.Optional;

/**
 * The elector's {@link Lock}, noting the latest {@code renewTime} the API server holds for this
 * instance (written, or read back): a standby may take the Lease {@code leaseDuration} after it,
 * so {@link IngestLeader} steps down {@code renewDeadline} after it, whatever fabric8's renew loop
 * is blocked on (fabric8 checks its deadline only between tries).
 */
final class RenewalClock implements Lock {
  private final Lock lease;
  private volatile ZonedDateTime renewed;

  RenewalClock(Lock lease) {
    this.lease = lease;
  }

  /** The last renewal of this instance's the API server accepted; empty before any. */
  Optional<ZonedDateTime> renewed() {
    return Optional.ofNullable(renewed);
  }

  @Override
  public LeaderElectionRecord get(KubernetesClient client) {
    LeaderElectionRecord current = lease.get(client);
    if (current != null && identity().equals(current.getHolderIdentity())) {
      note(current); // held by this instance already (a candidacy after a loss reads it so)
    }
    return current;
  }

  @Override
  public void create(KubernetesClient client, LeaderElectionRecord record) {
    lease.create(client, record);
    note(record);
  }

  @Override
  public void update(KubernetesClient client, LeaderElectionRecord record) {
    lease.update(client, record);
    if (identity().equals(record.getHolderIdentity())) {
      note(record);
    }
  }

  private synchronized void note(LeaderElectionRecord record) {
    ZonedDateTime at = record.getRenewTime();
    if (at != null && (renewed == null || at.isAfter(renewed))) {
      renewed = at;
    }
  }

  @Override
  public String identity() {
    return lease.identity();
  }

  @Override
  public String describe() {
    return lease.describe();
  }
}
