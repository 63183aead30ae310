package dev.kubeheadroom.ingest;

import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectionConfigBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import java.time.Duration;
import java.time.Instant;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
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
 *
 * <p>A leader steps down no later than {@code renewDeadline} after its last renewal the API server
 * accepted, before the Lease expires for a standby ({@code leaseDuration}): two leaders at once is
 * what the election exists to prevent. fabric8's elector alone does not promise that: it checks its
 * deadline only between tries, and a try blocks as long as its requests do (with fabric8's request
 * retries, ~19 s of backoff per request while the API server answers 503). So the elector has a
 * client of its own, built from the caller's configuration with fabric8's retries off and each
 * request bounded by one {@code retryPeriod} (a failed try is retried by the elector one period
 * later), and a watchdog ({@link RenewalClock}) steps down at the deadline even while a try hangs.
 */
public final class IngestLeader implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(IngestLeader.class);

  private final KubernetesClient client; // the elector's own: no retries, requests bounded
  private final IngestSettings.LeaseSettings lease;
  private final ScheduledExecutorService watchdog;
  private final Runnable onStartLeading;
  private final Runnable onStopLeading;
  private volatile boolean leading;
  private volatile boolean closing;
  private CompletableFuture<?> election;
  private RenewalClock renewals; // the current election's
  private int generation; // counts elections: a callback of an ended one changes nothing

  /**
   * @param onStartLeading runs (on the elector's thread; must not block) when this instance leads
   * @param onStopLeading runs (likewise, or on the watchdog's) when it stopped leading other than by {@link #close()}
   */
  public IngestLeader(KubernetesClient client, IngestSettings.LeaseSettings lease, Runnable onStartLeading,
      Runnable onStopLeading) {
    this.client = electionClient(client, lease);
    this.lease = lease;
    this.onStartLeading = onStartLeading;
    this.onStopLeading = onStopLeading;
    this.watchdog = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "headroom-ingest-lease-watchdog");
      t.setDaemon(true);
      return t;
    });
    long tick = Math.max(1, lease.retryPeriod().toMillis() / 4);
    watchdog.scheduleWithFixedDelay(this::checkDeadline, tick, tick, TimeUnit.MILLISECONDS);
  }

  /** The caller's configuration with fabric8's retries off and every request bounded by one retry period. */
  private static KubernetesClient electionClient(KubernetesClient client, IngestSettings.LeaseSettings lease) {
    int bound = (int) lease.retryPeriod().toMillis();
    return new KubernetesClientBuilder().withConfig(new ConfigBuilder(client.getConfiguration())
        .withRequestRetryBackoffLimit(0).withRequestTimeout(bound).withConnectionTimeout(bound).build()).build();
  }

  /** Joins the election (returns at once); stands again whenever an election ends but by {@link #close()}. */
  public synchronized void start() {
    if (closing) {
      return;
    }
    int ours = ++generation;
    renewals = new RenewalClock(new LeaseLock(lease.namespace(), lease.name(), lease.identity()));
    var config = new LeaderElectionConfigBuilder()
        .withName(lease.name())
        .withLock(renewals)
        .withLeaseDuration(lease.leaseDuration())
        .withRenewDeadline(lease.renewDeadline())
        .withRetryPeriod(lease.retryPeriod())
        .withReleaseOnCancel(true)
        .withLeaderCallbacks(new LeaderCallbacks(() -> started(ours), () -> stopped(ours), this::newLeader))
        .build();
    CompletableFuture<?> current = client.leaderElector().withConfig(config).build().start();
    election = current;
    current.whenComplete((ok, error) -> {
      if (!closing && current == election) {
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

  private synchronized void started(int of) {
    if (of != generation || closing) {
      return;
    }
    leading = true;
    LOG.info("Lease({}/{}) acquired by {}: publishing", lease.namespace(), lease.name(), lease.identity());
    onStartLeading.run();
  }

  private synchronized void stopped(int of) {
    if (of != generation) {
      return;
    }
    boolean was = leading;
    leading = false;
    if (!closing && was) {
      LOG.warn("Lease({}/{}) lost by {}: ingest stops publishing", lease.namespace(), lease.name(),
          lease.identity());
      onStopLeading.run();
      endElection(); // fabric8 may not end it itself (its release's GET can throw): stand again from here
    }
  }

  /**
   * Steps down once {@code renewDeadline} has passed since the last renewal the API server holds:
   * its {@code renewTime}, the instant a standby counts the lease duration from (on its own clock).
   */
  private synchronized void checkDeadline() {
    if (!leading || closing) {
      return;
    }
    Duration since = renewals.renewed().map(at -> Duration.between(at.toInstant(), Instant.now()))
        .orElse(Duration.ofDays(1));
    if (since.compareTo(lease.renewDeadline()) > 0) {
      LOG.warn("Lease({}/{}): no renewal accepted for {} ms, past the renew deadline", lease.namespace(),
          lease.name(), since.toMillis());
      stopped(generation);
    }
  }

  /**
   * Cancels the current election on a thread of its own: fabric8 releases the Lease in the
   * cancelling thread, after any try in flight (one request bound each); its end stands again.
   */
  private void endElection() {
    CompletableFuture<?> current = election;
    if (current != null) {
      CompletableFuture.runAsync(() -> current.cancel(true));
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
  public void close() {
    CompletableFuture<?> current;
    synchronized (this) {
      closing = true;
      leading = false;
      current = election;
    }
    watchdog.shutdownNow();
    if (current != null) {
      current.cancel(true); // releases the Lease (in this thread) if held
    }
    client.close();
  }
}
