package dev.kubeheadroom.cli;

import dev.kubeheadroom.pipeline.StageSpec;
import dev.kubeheadroom.schemas.Topics;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code headroom ingest}: informers → node-keyed topics, leader-elected (one publisher per cluster). */
@Command(name = "ingest", mixinStandardHelpOptions = true,
    description = "Runs the ingest stage: watches pods, nodes, namespaces and config; publishes changes to Kafka.")
public final class IngestCommand extends StageCommand {
  @Mixin KubeOptions kube;
  @Mixin IngestOptions stage;

  @Override
  List<StageSpec> stages(StageRuntime runtime, KafkaConnection connection, Topics topics) {
    return List.of(stage.spec(connection, topics, runtime.own(kube.client())));
  }

  @Override
  KubernetesClient metricsAuthClient() {
    return kube.client();
  }
}
