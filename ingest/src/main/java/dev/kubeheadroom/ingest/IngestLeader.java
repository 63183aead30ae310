package dev.kubeheadroom.ingest;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectionConfigBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Lease-based leader election ({@code coordination.k8s.io/v1} Lease via fabric8's
 * {@code client.leaderElector()}): ingest is one active leader per cluster (docs/design/pipeline.md "Scale").
 *
 * <p>Losing leadership (another holder, or a renewal the API server did not answer in time) is
 * not final: the owner is told ({@code onStopLeading}) and stops publishing, and this instance
 * stands again at once, a standby until it acquires the Lease anew (a new leadership, a higher
 * epoch: {@link LeaseEpoch}). Exiting instead would not bring an API server back, and the
 * kubelet's back-off would keep the replica down after it returned. Closing releases the lease,
 * so a standby takes over within one retry period instead of waiting for the lease to expire.
 */
public final class IngestLeader implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(IngestLeader.class);

  private final KubernetesClient client;
  private final IngestSettings.LeaseSettings lease;
  private final Runnable onStartLeading;
  private final Runnable onStopLeading;
  private volatile boolean leading;
  private volatile boolean closing;
  private CompletableFuture<?> election;

  /**
   * @param onStartLeading runs (on the elector's thread; must not block) when this instance leads
   * @param onStopLeading runs (likewise) when it stopped leading other than by {@link #close()}
   */
  public IngestLeader(KubernetesClient client, IngestSettings.LeaseSettings lease, Runnable onStartLeading,
      Runnable onStopLeading) {
    this.client = client;
    this.lease = lease;
    this.onStartLeading = onStartLeading;
    this.onStopLeading = onStopLeading;
  }

  /** Joins the election (returns at once); stands again whenever an election ends but by {@link #close()}. */
  public synchronized void start() {
    if (closing) {
      return;
    }
    var config = new LeaderElectionConfigBuilder()
        .withName(lease.name())
        .withLock(new LeaseLock(lease.namespace(), lease.name(), lease.identity()))
        .withLeaseDuration(lease.leaseDuration())
        .withRenewDeadline(lease.renewDeadline())
        .withRetryPeriod(lease.retryPeriod())
        .withReleaseOnCancel(true)
        .withLeaderCallbacks(new LeaderCallbacks(this::started, this::stopped, this::newLeader))
        .build();
    election = client.leaderElector().withConfig(config).build().start();
    election.whenComplete((ok, error) -> {
      if (!closing) {
        LOG.warn("Lease({}/{}): the election ended ({}); {} stands again", lease.namespace(), lease.name(),
            error == null ? "leadership lost" : error.toString(), lease.identity());
        pauseThenStart();
      }
    });
  }

  /** Whether this instance holds the lease now. */
  public boolean leading() {
    return leading;
  }

  /**
   * The epoch of this leadership ({@link LeaseEpoch}), read from the Lease as it is now: empty
   * when another instance holds it (this one has lost it, or is about to be told). Reads the
   * Lease once (a GET the elector's role already allows).
   *
   * @throws io.fabric8.kubernetes.client.KubernetesClientException when the API server does not answer
   */
  public OptionalLong epoch() {
    Lease current = client.leases().inNamespace(lease.namespace()).withName(lease.name()).get();
    if (current == null || current.getSpec() == null
        || !lease.identity().equals(current.getSpec().getHolderIdentity())) {
      return OptionalLong.empty();
    }
    return OptionalLong.of(LeaseEpoch.of(current));
  }

  private void started() {
    leading = true;
    LOG.info("Lease({}/{}) acquired by {}: publishing", lease.namespace(), lease.name(), lease.identity());
    onStartLeading.run();
  }

  private void stopped() {
    boolean was = leading;
    leading = false;
    if (!closing && was) {
      LOG.warn("Lease({}/{}) lost by {}: ingest stops publishing", lease.namespace(), lease.name(),
          lease.identity());
      onStopLeading.run();
    }
  }

  private void newLeader(String identity) {
    if (!identity.equals(lease.identity())) {
      LOG.info("Lease({}/{}) held by {}", lease.namespace(), lease.name(), identity);
    }
  }

  /** One retry period, then a new election (on a thread of its own: the elector's is ending). */
  private void pauseThenStart() {
    CompletableFuture.delayedExecutor(lease.retryPeriod().toMillis(), TimeUnit.MILLISECONDS)
        .execute(this::start);
  }

  /** Leaves the election, releasing the lease if held. */
  @Override
  public synchronized void close() {
    closing = true;
    leading = false;
    if (election != null) {
      election.cancel(true);
    }
  }
}
