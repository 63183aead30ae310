package dev.kubeheadroom.cli;

import dev.kubeheadroom.ingest.IngestSettings;
import dev.kubeheadroom.pipeline.IngestSpec;
import dev.kubeheadroom.schemas.Topics;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import picocli.CommandLine.Option;

/** The ingest stage's own options (for {@code ingest} and {@code run}). */
public final class IngestOptions {
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

  /** The ingest stage from these options, publishing through {@code client}. */
  IngestSpec spec(KafkaConnection connection, Topics topics, KubernetesClient client) {
    String id = identity != null && !identity.isBlank() ? identity : hostName();
    Duration resync = DurationFlag.parse("--resync-period", resyncPeriod);
    IngestSettings defaults = IngestSettings.defaults(connection.client(), id);
    IngestSettings settings = defaults.with(b -> {
      b.topics = topics;
      b.resyncPeriod = resync;
      b.lease = new IngestSettings.LeaseSettings(leaseNamespace, leaseName, id,
          defaults.lease().leaseDuration(), defaults.lease().renewDeadline(), defaults.lease().retryPeriod());
    });
    return new IngestSpec(settings, client);
  }

  private static String hostName() {
    try {
      return java.net.InetAddress.getLocalHost().getHostName();
    } catch (java.net.UnknownHostException e) {
      return "headroom-" + ProcessHandle.current().pid();
    }
  }
}
