package dev.kubeheadroom.cli;

import dev.kubeheadroom.schemas.Topics;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code headroom webhook}: the mutating admission webhook seeding birth limits (docs/design/headroom-design.txt §6.5). */
@Command(name = "webhook", mixinStandardHelpOptions = true,
    description = "Runs the admission webhook: sets a boosted CPU limit on pods at CREATE; never blocks.")
public final class WebhookCommand implements Callable<Integer> {
  @Mixin KafkaOptions kafka;
  @Mixin TopicOptions topicOptions;
  @Mixin OpsOptions ops;

  @Mixin WebhookStage stage;

  @Override
  public Integer call() throws Exception {
    try (StageRuntime runtime = StageRuntime.start(ops)) {
      KafkaConnection connection = runtime.own(kafka.connect(System.getenv()));
      Topics topics = topicOptions.prepare(connection);
      stage.start(runtime, connection, topics);
      return runtime.runUntilStopped();
    }
  }
}
