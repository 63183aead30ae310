package dev.kubeheadroom.schemas;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What a record on the namespaces or config topic does to the {@link ClusterState}. */
class ClusterStateTest {
  private static final Topics TOPICS = Topics.defaults();

  @Test
  void theViewIsAppliedToEveryConfigTheDefaultsIncluded() {
    ClusterState state = new ClusterState(TOPICS, c -> c.withGangOwnerKinds(List.of("Job")));
    assertThat(state.config()).isEqualTo(ClusterConfig.DEFAULTS.withGangOwnerKinds(List.of("Job")));

    state.apply(TOPICS.config(), HeadroomKeys.CONFIG_NAME, JsonCodec.encode(ClusterConfig.DEFAULTS.withDryRun(false)));
    assertThat(state.config()).isEqualTo(ClusterConfig.DEFAULTS.withDryRun(false).withGangOwnerKinds(List.of("Job")));

    state.apply(TOPICS.config(), HeadroomKeys.CONFIG_NAME, null);
    assertThat(state.config()).isEqualTo(ClusterConfig.DEFAULTS.withGangOwnerKinds(List.of("Job")));
  }

  @Test
  void anUnreadableRecordIsReportedAndTheLastGoodValueStays() {
    ClusterState state = new ClusterState();
    NamespaceInfo team = new NamespaceInfo("team-a", Map.of(HeadroomKeys.MODE_LABEL, HeadroomKeys.MANAGED), 0);
    assertThat(state.apply(TOPICS.namespaces(), "team-a", JsonCodec.encode(team))).isEmpty();
    state.apply(TOPICS.config(), HeadroomKeys.CONFIG_NAME, JsonCodec.encode(ClusterConfig.DEFAULTS.withDryRun(false)));

    assertThat(state.apply(TOPICS.namespaces(), "team-a", new byte[] {'{'})).isPresent();
    assertThat(state.apply(TOPICS.config(), HeadroomKeys.CONFIG_NAME, new byte[] {'{'})).isPresent();
    assertThat(state.apply(TOPICS.namespaces(), null, JsonCodec.encode(team))).contains("record without a key");

    assertThat(state.namespace("team-a")).contains(team);
    assertThat(state.config().dryRun()).isFalse();
  }

  @Test
  void onlyTheClusterKeyIsTheConfigAndATombstoneRemovesANamespace() {
    ClusterState state = new ClusterState();
    state.apply(TOPICS.config(), "other", JsonCodec.encode(ClusterConfig.DEFAULTS.withDryRun(false)));
    assertThat(state.config()).isEqualTo(ClusterConfig.DEFAULTS);

    state.apply(TOPICS.namespaces(), "team-a", JsonCodec.encode(new NamespaceInfo("team-a", Map.of(), 0)));
    assertThat(state.namespaceCount()).isEqualTo(1);
    state.apply(TOPICS.namespaces(), "team-a", null);
    assertThat(state.namespace("team-a")).isEmpty();
  }
}
