package dev.kubeheadroom.topology;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.schemas.ClusterConfig;
import dev.kubeheadroom.schemas.ClusterState;
import dev.kubeheadroom.schemas.HeadroomKeys;
import dev.kubeheadroom.schemas.JsonCodec;
import dev.kubeheadroom.schemas.NamespaceInfo;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The topology's global tables and the actuator's / webhook's {@link ClusterState} are one view of
 * the compacted namespaces and config topics: the same records, piped to both, leave the same
 * namespaces and the same config after every record (puts, tombstones, unreadable values, records
 * without a key, config records under another key).
 */
class ClusterStateAgreementTest {
  private static final List<String> NAMES = List.of("team-a", "team-b", "kube-system");

  @TempDir
  Path stateDir;

  /** One record on the namespaces or the config topic, and whether it cannot be read. */
  private record Sent(boolean namespaces, String key, byte[] value, boolean unreadable) {
    Sent(boolean namespaces, String key, byte[] value) {
      this(namespaces, key, value, false);
    }

    static Sent garbage(boolean namespaces, String key, String value) {
      return new Sent(namespaces, key, value.getBytes(StandardCharsets.UTF_8), true);
    }
  }

  @Test
  void theGlobalTablesAndTheClusterStateAgreeRecordByRecord() {
    List<Sent> records = new ArrayList<>();
    records.add(namespace("team-a", "managed"));
    records.add(namespace("team-b", "unmanaged"));
    records.add(config(HeadroomKeys.CONFIG_NAME, ClusterConfig.DEFAULTS.withDryRun(false)));
    records.add(Sent.garbage(true, "team-a", "{not json"));
    records.add(Sent.garbage(false, HeadroomKeys.CONFIG_NAME, "{\"schemaVersion\":1}"));
    records.add(new Sent(true, null, JsonCodec.encode(new NamespaceInfo("team-b", Map.of(), 0)), true));
    records.add(new Sent(false, null, JsonCodec.encode(ClusterConfig.DEFAULTS.withDryRun(true)), true));
    records.add(config("another", ClusterConfig.DEFAULTS.withGangOwnerKinds(List.of("Job"))));
    records.add(new Sent(true, "team-a", null));
    records.add(new Sent(false, HeadroomKeys.CONFIG_NAME, null));
    records.add(config(HeadroomKeys.CONFIG_NAME, ClusterConfig.DEFAULTS.withDryRun(false).withGangOwnerKinds(List.of("Job"))));
    records.add(namespace("team-a", null));
    assertAgreement(records);
  }

  @Test
  void theyAgreeOnShuffledHistories() {
    for (long seed = 1; seed <= 20; seed++) {
      Random random = new Random(seed);
      List<Sent> records = new ArrayList<>();
      for (int i = 0; i < 30; i++) {
        String name = NAMES.get(random.nextInt(NAMES.size()));
        records.add(switch (random.nextInt(6)) {
          case 0 -> namespace(name, random.nextBoolean() ? "managed" : null);
          case 1 -> new Sent(true, name, null);
          case 2 -> config(HeadroomKeys.CONFIG_NAME, ClusterConfig.DEFAULTS.withDryRun(random.nextBoolean()));
          case 3 -> new Sent(false, HeadroomKeys.CONFIG_NAME, null);
          case 4 -> random.nextBoolean() ? Sent.garbage(true, name, "{") : Sent.garbage(false, HeadroomKeys.CONFIG_NAME, "{");
          default -> config(name, ClusterConfig.DEFAULTS.withDryRun(false));
        });
      }
      assertAgreement(records);
    }
  }

  private void assertAgreement(List<Sent> records) {
    try (TopologyHarness harness = new TopologyHarness(stateDir)) {
      ClusterState state = new ClusterState(harness.topics, c -> c);
      TestInputTopic<String, byte[]> namespaces = input(harness, harness.topics.namespaces());
      TestInputTopic<String, byte[]> config = input(harness, harness.topics.config());
      KeyValueStore<String, NamespaceInfo> namespaceTable = harness.driver.getKeyValueStore(HeadroomTopology.NAMESPACES_STORE);
      KeyValueStore<String, ClusterConfig> configTable = harness.driver.getKeyValueStore(HeadroomTopology.CONFIG_STORE);
      for (int i = 0; i < records.size(); i++) {
        Sent r = records.get(i);
        (r.namespaces() ? namespaces : config).pipeInput(r.key(), r.value());
        String topic = r.namespaces() ? harness.topics.namespaces() : harness.topics.config();
        boolean skipped = state.apply(topic, r.key(), r.value()).isPresent();
        assertThat(skipped).as("record %d skipped by the state iff it cannot be read", i).isEqualTo(r.unreadable());
        ClusterConfig tableConfig = configTable.get(HeadroomKeys.CONFIG_NAME);
        assertThat(state.config()).as("config after record %d", i)
            .isEqualTo(tableConfig == null ? ClusterConfig.DEFAULTS : tableConfig);
        for (String name : NAMES) {
          assertThat(state.namespace(name).orElse(null)).as("namespace %s after record %d", name, i)
              .isEqualTo(namespaceTable.get(name));
        }
      }
    }
  }

  private static TestInputTopic<String, byte[]> input(TopologyHarness harness, String topic) {
    return harness.driver.createInputTopic(topic, new StringSerializer(), new ByteArraySerializer());
  }

  private static Sent namespace(String name, String mode) {
    Map<String, String> labels = mode == null ? Map.of() : Map.of(HeadroomKeys.MODE_LABEL, mode);
    return new Sent(true, name, JsonCodec.encode(new NamespaceInfo(name, labels, 0)));
  }

  private static Sent config(String key, ClusterConfig config) {
    return new Sent(false, key, JsonCodec.encode(config));
  }
}
