package dev.kubeheadroom.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kubeheadroom.schemas.Topics;
import dev.kubeheadroom.topology.FailoverTimeouts;
import dev.kubeheadroom.topology.TopologyRunner;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The chart's StatefulSet flags ({@code --num-standby-replicas}, {@code --group-instance-id}), the
 * failover timeouts and the topic replication flags reach the topology.
 */
class TopologyMembershipFlagsTest {
  private static TopologyRunner.Options options(String... args) {
    TopologyCommand command = new TopologyCommand();
    new CommandLine(command).parseArgs(args);
    KafkaConnection kafka = new KafkaConnection("kafka:9092", Map.of(), null);
    return command.stage.spec(kafka, new Topics("headroom."), command.topicOptions.layout(kafka)).options();
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

  @Test
  void theFailoverTimeoutFlagsReachTheTopologyAndDefaultToItsOwn() {
    assertThat(options().failover()).isEqualTo(FailoverTimeouts.DEFAULTS);
    assertThat(options("--session-timeout=6s", "--transaction-timeout=2500ms").failover())
        .isEqualTo(new FailoverTimeouts(Duration.ofSeconds(6), Duration.ofMillis(2500)));
    assertThatThrownBy(() -> options("--transaction-timeout=50ms")).isInstanceOf(UserError.class)
        .hasMessageContaining("100 ms");
    assertThatThrownBy(() -> options("--session-timeout=soon")).isInstanceOf(UserError.class)
        .hasMessageContaining("--session-timeout");
  }

  // Streams creates the changelogs itself: without these they would get the broker's
  // default.replication.factor (1 unless changed), and one lost broker would lose bookings.
  @Test
  void theChangelogsAreReplicatedAsTheTopicFlagsSay() {
    TopologyRunner.Options defaults = options();
    TopologyRunner.Options given = options("--topic-replication-factor=5", "--topic-min-insync-replicas=3");

    assertThat(defaults.kafka().properties())
        .containsEntry("replication.factor", "3").containsEntry("topic.min.insync.replicas", "2");
    assertThat(given.kafka().properties())
        .containsEntry("replication.factor", "5").containsEntry("topic.min.insync.replicas", "3");
  }
}
