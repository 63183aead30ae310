package dev.kubeheadroom.schemas;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class TopicLayoutTest {
  private static final Duration WEEK = Duration.ofDays(7);

  @Test
  void minInsyncReplicasDefaultsToTwo() {
    assertThat(new TopicLayout(6, (short) 3, WEEK).minInsyncReplicas()).isEqualTo(2);
  }

  @Test
  void minInsyncReplicasIsCappedAtTheReplicationFactor() {
    // more than the replicas would make every acks=all write fail with NOT_ENOUGH_REPLICAS
    assertThat(TopicLayout.singleBroker(3).minInsyncReplicas()).isEqualTo(1);
    assertThat(new TopicLayout(6, (short) 2, WEEK, 3).minInsyncReplicas()).isEqualTo(2);
    assertThat(new TopicLayout(6, (short) 5, WEEK, 3).minInsyncReplicas()).isEqualTo(3);
  }

  @Test
  void minInsyncReplicasBelowOneIsRefused() {
    assertThatThrownBy(() -> new TopicLayout(6, (short) 3, WEEK, 0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("min in-sync replicas");
  }
}
