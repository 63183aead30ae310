package dev.kubeheadroom.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.schemas.Topics;
import dev.kubeheadroom.topology.TopologyRunner;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The chart's StatefulSet flags ({@code --num-standby-replicas}, {@code --group-instance-id}) reach the topology. */
class TopologyMembershipFlagsTest {
  private static TopologyRunner.Options options(String... args) {
    TopologyCommand command = new TopologyCommand();
    new CommandLine(command).parseArgs(args);
    return command.stage.spec(new KafkaConnection("kafka:9092", Map.of(), null), new Topics("headroom.")).options();
  }

  @Test
  void withoutTheFlagsNoStandbysAndDynamicMembership() {
    TopologyRunner.Options options = options();

    assertThat(options.standbyReplicas()).isZero();
    assertThat(options.groupInstanceId()).isEmpty();
  }

  @Test
  void theFlagsSetStandbysAndTheStaticMemberId() {
    TopologyRunner.Options options = options("--num-standby-replicas=1", "--group-instance-id=kube-headroom-topology-1");

    assertThat(options.standbyReplicas()).isEqualTo(1);
    assertThat(options.groupInstanceId()).isEqualTo("kube-headroom-topology-1");
  }
}
