package dev.kubeheadroom.cli;

import dev.kubeheadroom.pipeline.Pipeline;
import dev.kubeheadroom.pipeline.RestartPolicy;
import dev.kubeheadroom.pipeline.StageSpec;
import dev.kubeheadroom.schemas.Topics;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Mixin;

/**
 * The one body of every long-running command ({@code run}, {@code ingest}, {@code topology},
 * {@code actuator}, {@code webhook}): health and metrics, Kafka, the topics, then its stages as
 * one {@link Pipeline} until a signal or a failure it gives up on.
 */
abstract class StageCommand implements Callable<Integer> {
  @Mixin KafkaOptions kafka;
  @Mixin TopicOptions topicOptions;
  @Mixin OpsOptions ops;

  /** The stages to run, in start order; resources they share are owned by {@code runtime}. */
  abstract List<StageSpec> stages(StageRuntime runtime, KafkaConnection connection, Topics topics);

  /**
   * One stage per process: a failed stage ends the process once (exit 1), and the orchestrator
   * restarts it with its own backoff, counted in the pod's restarts.
   */
  RestartPolicy restartPolicy() {
    return RestartPolicy.EXIT;
  }

  /**
   * The client the metrics port's token reviews go through ({@code --metrics-auth=kubernetes}):
   * in-cluster the pod's ServiceAccount, else {@code $KUBECONFIG}. Stages with {@code --kubeconfig}
   * options use theirs.
   */
  KubernetesClient metricsAuthClient() {
    return new KubernetesClientBuilder().build();
  }

  @Override
  public Integer call() throws Exception {
    // Kafka first: a command given none fails in one line before it serves anything.
    KafkaConnection connection = kafka.connect(System.getenv());
    StageRuntime runtime;
    try {
      runtime = StageRuntime.start(ops, this::metricsAuthClient);
    } catch (RuntimeException e) {
      connection.close();
      throw e;
    }
    try (runtime) {
      runtime.own(connection); // closed with the runtime, before its signal handler lets the JVM exit
      Topics topics = topicOptions.prepare(connection);
      List<StageSpec> stages = stages(runtime, connection, topics);
      return runtime.run(Pipeline.start(runtime.context, restartPolicy(), stages));
    }
  }
}
