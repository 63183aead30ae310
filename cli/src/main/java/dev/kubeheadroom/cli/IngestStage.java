package dev.kubeheadroom.cli;

import dev.kubeheadroom.ingest.Ingest;
import dev.kubeheadroom.ingest.IngestSettings;
import dev.kubeheadroom.projection.GoDuration;
import dev.kubeheadroom.schemas.Topics;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.Optional;
import picocli.CommandLine.Option;

/** The ingest stage's own options, and how it starts (for {@code ingest} and {@code run}). */
public final class IngestStage {
  @Option(names = "--leader-election-namespace", paramLabel = "NS",
      defaultValue = "${env:HEADROOM_POD_NAMESPACE:-" + IngestSettings.LeaseSettings.DEFAULT_NAMESPACE + "}",
      description = "Namespace of the leader Lease (default: $HEADROOM_POD_NAMESPACE, else ${DEFAULT-VALUE}).")
  String leaseNamespace;

  @Option(names = "--leader-election-lease", paramLabel = "NAME",
      defaultValue = "${env:HEADROOM_LEADER_ELECTION_LEASE:-" + IngestSettings.LeaseSettings.DEFAULT_NAME + "}",
      description = "Name of the leader Lease (default: ${DEFAULT-VALUE}). Env: HEADROOM_LEADER_ELECTION_LEASE.")
  String leaseName;

  @Option(names = "--identity", paramLabel = "NAME", defaultValue = "${env:HEADROOM_POD_NAME}",
      description = "This replica's Lease identity (default: $HEADROOM_POD_NAME, else the host name).")
  String identity;

  @Option(names = "--resync-period", paramLabel = "DURATION", defaultValue = "${env:HEADROOM_RESYNC_PERIOD:-10m}",
      description = "How often node syncs heal missed deletes (default: ${DEFAULT-VALUE}). Env: HEADROOM_RESYNC_PERIOD.")
  String resyncPeriod;

  Ingest start(StageRuntime runtime, KafkaConnection connection, Topics topics, KubernetesClient client) {
    String id = identity != null && !identity.isBlank() ? identity : hostName();
    Duration resync;
    try {
      resync = GoDuration.parse(resyncPeriod);
    } catch (IllegalArgumentException e) {
      throw new UserError("--resync-period: " + e.getMessage());
    }
    IngestSettings defaults = IngestSettings.defaults(connection.bootstrapServers(), id);
    IngestSettings settings = defaults.withTopics(topics).withResyncPeriod(resync)
        .withClientProperties(connection.clientProperties())
        .withLease(new IngestSettings.LeaseSettings(leaseNamespace, leaseName, id,
            defaults.lease().leaseDuration(), defaults.lease().renewDeadline(), defaults.lease().retryPeriod()));
    Ingest ingest = runtime.own(Ingest.start(client, settings, runtime.registry, runtime.metrics));
    runtime.readiness.add("ingest", ingest::ready);
    runtime.watch("ingest", () -> ingest.terminated().isDone()
        ? Optional.of(new IllegalStateException("ingest stopped: " + ingest.terminated().getNow("")))
        : Optional.empty());
    return ingest;
  }

  private static String hostName() {
    try {
      return java.net.InetAddress.getLocalHost().getHostName();
    } catch (java.net.UnknownHostException e) {
      return "headroom-" + ProcessHandle.current().pid();
    }
  }
}
