package dev.kubeheadroom.cli;

import dev.kubeheadroom.schemas.Topics;
import dev.kubeheadroom.topology.TopologySettings;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.concurrent.Callable;
import java.util.function.UnaryOperator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code headroom run}: every stage in one process against one Kubernetes cluster — ingest,
 * topology, actuator, and the webhook when {@code --webhook-cert-dir} is given. With no
 * {@code --kafka-bootstrap-servers}, on an embedded broker whose data survives restarts.
 */
@Command(name = "run", mixinStandardHelpOptions = true,
    description = {"Runs all stages in one process (ingest, topology, actuator; the webhook with --webhook-cert-dir).",
        "Without --kafka-bootstrap-servers, Kafka runs embedded with its data under --data-dir."})
public final class RunCommand implements Callable<Integer> {
  @Mixin KafkaOptions kafka;
  @Mixin TopicOptions topicOptions;
  @Mixin KubeOptions kube;
  @Mixin OpsOptions ops;
  @Mixin TopologyStage topology;
  @Mixin IngestStage ingest;
  @Mixin ActuatorStage actuator;
  @Mixin WebhookStage webhook;

  @Override
  public Integer call() throws Exception {
    try (StageRuntime runtime = StageRuntime.start(ops)) {
      KafkaConnection connection = runtime.own(kafka.connect(System.getenv()));
      Topics topics = topicOptions.prepare(connection);
      KubernetesClient client = runtime.own(kube.client());
      topology.start(runtime, connection, topics, TopologySettings.defaults(topics));
      actuator.start(runtime, connection, topics, kube.config(), UnaryOperator.identity());
      ingest.start(runtime, connection, topics, client);
      if (webhook.certDir != null) {
        webhook.start(runtime, connection, topics);
      }
      return runtime.runUntilStopped();
    }
  }
}
