package dev.kubeheadroom.actuator;

import static dev.kubeheadroom.actuator.ActuatorHarness.NS;
import static dev.kubeheadroom.actuator.Decisions.change;
import static dev.kubeheadroom.actuator.Decisions.decision;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.kubeheadroom.kubedouble.RequestMatcher;
import dev.kubeheadroom.schemas.KafkaClientSettings;
import dev.kubeheadroom.testkit.WithKafka;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.ConfigBuilder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** A decisions partition handed from one replica of the group to another. */
@WithKafka
class GroupHandOverTest {
  @RegisterExtension final ActuatorHarness h = new ActuatorHarness();

  // A new group starts at the latest offsets (ActuatorGateTest): fixed by the first owner when it
  // is assigned, but only in its own consumer. A partition that moved before the first owner had
  // committed anything was resolved to "latest" again by its next owner, skipping every decision
  // in between: lost until the topology re-decided the pod at its pending expiry (backoffPeriod,
  // 60 s), committing the same decision twice (the scaled run's duplicates while its groups formed).
  @Test
  void aPartitionMovedBeforeItsFirstCommitKeepsTheDecisionsQueuedOnIt() {
    // given one pod on a node of each decisions partition
    List<String> pods = new ArrayList<>();
    List<String> nodes = nodePerPartition(2);
    for (String node : nodes) {
      Pod pod = h.pod("web-" + node, node, "app=750m/1500m");
      pods.add(pod.getMetadata().getName());
    }
    // and a replica of a new group (production offsets: latest) that cannot reach the API server,
    // retrying slowly, so it handles (and commits) nothing
    ActuatorSettings production = ActuatorSettings.defaults(KafkaClientSettings.of(h.kafka.bootstrapServers()), h.topics)
        .with(b -> b.groupId = h.groupId);
    h.start(production.with(b -> {
      b.instance = "actuator-a";
      b.retry = new RetryPolicy(100, Duration.ofSeconds(30));
    }),
        new ConfigBuilder(h.api.config()).withMasterUrl("http://127.0.0.1:1/").build());
    // when decisions arrive for both pods, and then a second replica joins and takes a partition
    for (int i = 0; i < nodes.size(); i++) {
      String name = pods.get(i);
      h.produce(decision(nodes.get(i), false, change(h.stored(name).getMetadata().getUid(), NS, name, 1500, 3000)));
    }
    h.start(production.with(b -> b.instance = "actuator-b"));
    // then the second replica applies the decision queued on the partition it took over
    await().atMost(Duration.ofSeconds(20)).until(() -> h.api.requests().count(RequestMatcher.resize(), 200) >= 1);
    assertThat(pods.stream().filter(p -> h.cpuLimit(p, 0).equals("3"))).hasSize(1);
  }

  /** One node name per partition ({@code n<i>}, the first that the default partitioner puts there). */
  private static List<String> nodePerPartition(int partitions) {
    String[] names = new String[partitions];
    int found = 0;
    for (int i = 0; found < partitions; i++) {
      String node = "n" + i;
      int p = Utils.toPositive(Utils.murmur2(node.getBytes(StandardCharsets.UTF_8))) % partitions;
      if (names[p] == null) {
        names[p] = node;
        found++;
      }
    }
    return List.of(names);
  }
}
