package dev.kubeheadroom.pipeline;

import dev.kubeheadroom.ingest.Ingest;
import dev.kubeheadroom.ingest.IngestSettings;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The ingest stage: informers → node-keyed topics, leader-elected. It fails by itself only when its
 * topics become unusable (a lost Lease makes it a standby again); the client outlives it (a
 * restart reuses it).
 */
public record IngestSpec(IngestSettings settings, KubernetesClient client) implements StageSpec {
  public static final String NAME = "ingest";

  public IngestSpec {
    Objects.requireNonNull(settings, "settings");
    Objects.requireNonNull(client, "client");
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Stage start(StageContext context) {
    Ingest ingest = Ingest.start(client, settings, context.registry(), context.metrics());
    return new RunningStage(NAME, ingest::ready, () -> ingest.terminated().isDone()
        ? Optional.of(new IllegalStateException("ingest stopped: " + ingest.terminated().getNow("")))
        : Optional.empty(), List.of(ingest));
  }
}
