package dev.kubeheadroom.cli;

import dev.kubeheadroom.pipeline.RestartPolicy;
import dev.kubeheadroom.pipeline.StageSpec;
import dev.kubeheadroom.schemas.Topics;
import java.util.ArrayList;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code headroom run}: every stage in one process against one Kubernetes cluster — ingest,
 * topology, actuator, and the webhook when {@code --webhook-cert-dir} is given. With no
 * {@code --kafka-bootstrap-servers}, on an embedded broker whose data survives restarts.
 */
@Command(name = "run", mixinStandardHelpOptions = true,
    description = {"Runs all stages in one process (ingest, topology, actuator; the webhook with --webhook-cert-dir).",
        "Without --kafka-bootstrap-servers, ./headroom runs Kafka embedded with its data under --data-dir "
            + "(the operator image has no embedded broker).",
        "A stage that fails is restarted in-process (1 s backoff, doubling to 30 s); the sixth failure "
            + "within 10 minutes ends the process (exit 1)."})
public final class RunCommand extends StageCommand {
  @Mixin KubeOptions kube;
  @Mixin TopologyOptions topology;
  @Mixin IngestOptions ingest;
  @Mixin ActuatorOptions actuator;
  @Mixin WebhookOptions webhook;

  @Override
  List<StageSpec> stages(StageRuntime runtime, KafkaConnection connection, Topics topics) {
    List<StageSpec> stages = new ArrayList<>(List.of(topology.spec(connection, topics, topicOptions.layout(connection)),
        actuator.spec(connection, topics, kube.config()),
        ingest.spec(connection, topics, runtime.own(kube.client()))));
    if (webhook.certDir != null) {
      stages.add(webhook.spec(connection, topics));
    }
    return stages;
  }

  /**
   * In-process restarts: this process also holds the other stages and, in {@code ./headroom}
   * without {@code --kafka-bootstrap-servers}, the embedded broker; exiting for one stage would stop them
   * all (and admission with them). A stage that keeps failing still ends the process.
   */
  @Override
  RestartPolicy restartPolicy() {
    return RestartPolicy.IN_PROCESS;
  }

  @Override
  KubernetesClient metricsAuthClient() {
    return kube.client();
  }
}
