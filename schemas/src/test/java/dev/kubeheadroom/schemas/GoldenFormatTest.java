package dev.kubeheadroom.schemas;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Every topic record type against its checked-in golden JSON ({@code golden/README.md}): today's
 * sample writes exactly the golden bytes, and every older revision still reads. Round-trip tests
 * cannot catch a format change (both sides change together); these can.
 */
class GoldenFormatTest {
  /** The ingest epoch the stamped samples carry. */
  static final long EPOCH = 1_767_225_600_000_003L;

  private static String golden(String type, String file) {
    String path = "/golden/" + type + "/" + file;
    try (InputStream in = GoldenFormatTest.class.getResourceAsStream(path)) {
      assertThat(in).as(path).isNotNull();
      String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      assertThat(text).as(path + " is one line").endsWith("\n").hasLineCount(1);
      return text.substring(0, text.length() - 1);
    } catch (IOException e) {
      throw new AssertionError(path, e);
    }
  }

  private static <T> T read(String type, String file, Class<T> as) {
    return JsonCodec.decode(golden(type, file).getBytes(StandardCharsets.UTF_8), as);
  }

  private static NodeEvent event(String type) {
    return Samples.nodeEvents().stream()
        .filter(e -> JsonCodec.mapper().valueToTree(e).path("type").asText().equals(type))
        .findFirst().orElseThrow();
  }

  static NamespaceInfo namespace() {
    return namespaceWithoutWeight().withSlackWeight(2.5);
  }

  static NamespaceInfo namespaceWithoutWeight() {
    return new NamespaceInfo("team-a", Map.of("kube-headroom.dev/mode", "managed", "team", "a"), 4000, 8000, 1500);
  }

  static ClusterConfig config() {
    LabelSelector batch = new LabelSelector(Map.of("pool", "batch"), List.of());
    LabelSelector latency = new LabelSelector(Map.of(),
        List.of(new LabelSelector.Requirement("tier", "In", List.of("latency", "edge"))));
    return configWithoutPools().withTenancy(Tenancy.NAMESPACES).withPools(List.of(
        NodePool.named("batch", batch).withMaxMultiplier(0.0).withMinBurstFloorMilli(0L),
        NodePool.named("latency", latency).withMaxMultiplier(2.0).withDeadbands(20, 2)
            .withDebounce(java.time.Duration.ofMillis(500), java.time.Duration.ofSeconds(5))));
  }

  static ClusterConfig configWithoutPools() {
    return ClusterConfig.DEFAULTS.withDryRun(false);
  }

  /** The sample decision as a pool's, under hierarchical tenancy. */
  static NodeDecision pooledDecision() {
    NodeDecision d = Samples.decision();
    List<DecisionInput> inputs = d.inputs().stream()
        .map(i -> DecisionInput.of(i.toPolicy(), new dev.kubeheadroom.policy.Tenant("team-a", 2.5))).toList();
    return new NodeDecision(d.node(), d.at(), d.configGeneration(), "hierarchical-v1", d.dryRun(),
        d.config(), d.stats(), inputs, d.changes()).inPool("batch");
  }

  static DeadLetter deadLetter() {
    return new DeadLetter("headroom.pods", 2, 17, "n1", "bad json", "{", Samples.AT);
  }

  static NodeCheckpoint checkpoint() {
    NodeSnapshot node = (NodeSnapshot) event("node");
    return new NodeCheckpoint("n1", Instant.parse("2026-03-01T12:10:00Z"), node,
        List.of(new NodeCheckpoint.CheckpointPod(Samples.pod(), Samples.AT, false, 2)));
  }

  @Test
  void aCheckpointWritesExactlyItsGoldenBytes() {
    assertThat(JsonCodec.encodeToString(checkpoint())).isEqualTo(golden("checkpoint", "v1.json"));
    assertThat(read("checkpoint", "v1.json", NodeCheckpoint.class)).isEqualTo(checkpoint());
    assertThat(checkpoint().key()).isEqualTo("n1@1772367000000");
  }

  @Test
  void everyNodeEventWritesExactlyItsGoldenBytesStampedAndUnstamped() {
    for (String type : List.of("pod", "pod-removed", "node-sync", "node", "node-removed", "sync-mark")) {
      NodeEvent sample = event(type);
      assertThat(JsonCodec.encodeToString(sample.withEpoch(EPOCH))).as(type).isEqualTo(golden(type, "v1.json"));
      assertThat(JsonCodec.encodeToString(sample)).as(type + " unstamped").isEqualTo(golden(type, "v1-unstamped.json"));
      assertThat(read(type, "v1.json", NodeEvent.class)).as(type).isEqualTo(sample.withEpoch(EPOCH));
      assertThat(read(type, "v1-unstamped.json", NodeEvent.class)).as(type).isEqualTo(sample);
    }
    NodeEvent outcome = event("outcome");
    assertThat(JsonCodec.encodeToString(outcome)).isEqualTo(golden("outcome", "v1.json"));
    assertThat(read("outcome", "v1.json", NodeEvent.class)).isEqualTo(outcome);
  }

  @Test
  void theOtherTopicsRecordsWriteExactlyTheirGoldenBytes() {
    assertThat(JsonCodec.encodeToString(pooledDecision())).isEqualTo(golden("decision", "v1.json"));
    assertThat(JsonCodec.encodeToString(namespace())).isEqualTo(golden("namespace", "v1.json"));
    assertThat(JsonCodec.encodeToString(config())).isEqualTo(golden("config", "v1.json"));
    assertThat(JsonCodec.encodeToString(deadLetter())).isEqualTo(golden("dead-letter", "v1.json"));
    assertThat(read("decision", "v1.json", NodeDecision.class)).isEqualTo(pooledDecision());
    assertThat(read("namespace", "v1.json", NamespaceInfo.class)).isEqualTo(namespace());
    assertThat(read("config", "v1.json", ClusterConfig.class)).isEqualTo(config());
    assertThat(read("dead-letter", "v1.json", DeadLetter.class)).isEqualTo(deadLetter());
  }

  @Test
  void recordsWithoutPoolsTenancyOrWeightsKeepTheirBytesExactly() {
    // Default behaviour is byte-identical: a config without pools and tenancy, a decision under
    // the cluster defaults and a namespace without a weight write what they wrote before §11.
    assertThat(JsonCodec.encodeToString(configWithoutPools())).isEqualTo(golden("config", "v1-before-pools.json"));
    assertThat(JsonCodec.encodeToString(Samples.decision())).isEqualTo(golden("decision", "v1-before-pools.json"));
    assertThat(JsonCodec.encodeToString(namespaceWithoutWeight()))
        .isEqualTo(golden("namespace", "v1-before-slack-weight.json"));
    assertThat(read("config", "v1-before-pools.json", ClusterConfig.class)).isEqualTo(configWithoutPools());
    assertThat(read("decision", "v1-before-pools.json", NodeDecision.class)).isEqualTo(Samples.decision());
    assertThat(read("namespace", "v1-before-slack-weight.json", NamespaceInfo.class)).isEqualTo(namespaceWithoutWeight());
  }

  @Test
  void olderRevisionsStillReadWithTheMissingFieldsAtTheirDefaults() {
    // written before podLevelResources (and before epochs): a pod without pod-level resources
    assertThat(read("pod", "v1-before-pod-level-resources.json", NodeEvent.class)).isEqualTo(Samples.pod());
    // written before the pod max and the ratio: no such caps
    assertThat(read("namespace", "v1-container-max-only.json", NamespaceInfo.class))
        .isEqualTo(new NamespaceInfo("team-a", namespaceWithoutWeight().labels(), 4000, 0, 0));
    // written before dead letters said what kind of failure and which processor: unreadable input
    assertThat(read("dead-letter", "v1-before-kind.json", DeadLetter.class)).isEqualTo(deadLetter());
  }

  @Test
  void aDecisionMapsToThePolicyTypesAndBackUnchanged() {
    // the topology maps policy → wire, replay wire → policy: nothing may be lost either way
    NodeDecision d = Samples.decision();
    assertThat(DecisionConfig.of(d.config().toPolicy())).isEqualTo(d.config());
    assertThat(DecisionStats.of(d.stats().toPolicy())).isEqualTo(d.stats());
    assertThat(DecisionInput.of(DecisionInput.toPolicy(d.inputs()))).isEqualTo(d.inputs());
    ContainerChange c = d.changes().get(0).containers().get(0);
    assertThat(ContainerChange.of(c.toPolicy())).isEqualTo(c);
  }
}
