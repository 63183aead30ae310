package dev.kubeheadroom.cli;

import dev.kubeheadroom.schemas.Topics;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code headroom ingest}: informers → node-keyed topics, leader-elected (one publisher per cluster). */
@Command(name = "ingest", mixinStandardHelpOptions = true,
    description = "Runs the ingest stage: watches pods, nodes, namespaces and config; publishes changes to Kafka.")
public final class IngestCommand implements Callable<Integer> {
  @Mixin KafkaOptions kafka;
  @Mixin TopicOptions topicOptions;
  @Mixin KubeOptions kube;
  @Mixin OpsOptions ops;

  @Mixin IngestStage stage;

  @Override
  public Integer call() throws Exception {
    try (StageRuntime runtime = StageRuntime.start(ops)) {
      KafkaConnection connection = runtime.own(kafka.connect(System.getenv()));
      Topics topics = topicOptions.prepare(connection);
      KubernetesClient client = runtime.own(kube.client());
      stage.start(runtime, connection, topics, client);
      return runtime.runUntilStopped();
    }
  }
}
