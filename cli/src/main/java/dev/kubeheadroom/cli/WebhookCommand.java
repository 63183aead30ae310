package dev.kubeheadroom.cli;

import dev.kubeheadroom.pipeline.StageSpec;
import dev.kubeheadroom.schemas.Topics;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code headroom webhook}: the mutating admission webhook seeding birth limits (docs/design/headroom-design.txt §6.5). */
@Command(name = "webhook", mixinStandardHelpOptions = true,
    description = "Runs the admission webhook: sets a boosted CPU limit on pods at CREATE; never blocks.")
public final class WebhookCommand extends StageCommand {
  @Mixin WebhookOptions stage;

  @Override
  List<StageSpec> stages(StageRuntime runtime, KafkaConnection connection, Topics topics) {
    return List.of(stage.spec(connection, topics));
  }
}
