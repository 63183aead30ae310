package dev.kubeheadroom.projection;

import static dev.kubeheadroom.projection.ConfigProjectionTest.config;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kubeheadroom.schemas.ClusterConfig;
import dev.kubeheadroom.schemas.LabelSelector;
import dev.kubeheadroom.schemas.NodePool;
import dev.kubeheadroom.schemas.Tenancy;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** spec.pools and spec.tenancy (docs/design/headroom-design.txt §11.1, §11.4), and the slack-weight annotation. */
class PoolsProjectionTest {

  @Test
  void readsPoolsInOrderWithOnlyTheKnobsTheySet() {
    ClusterConfig config = ConfigProjection.project(config("""
        {'tenancy':'Namespaces','pools':[
          {'name':'batch','nodeSelector':{'matchLabels':{'pool':'batch'}},'maxMultiplier':'Unlimited',
           'minBurstFloor':'0'},
          {'name':'latency','nodeSelector':{'matchExpressions':[{'key':'tier','operator':'In','values':['web']}]},
           'maxMultiplier':'2','deadband':{'grow':20},'debouncePeriod':'500ms','maxDebounceDelay':'5s'}]}"""));

    assertThat(config.tenancy()).isEqualTo(Tenancy.NAMESPACES);
    assertThat(config.pools()).containsExactly(
        new NodePool("batch", new LabelSelector(Map.of("pool", "batch"), List.of()), 0L, 0.0, null, null, null, null),
        new NodePool("latency", new LabelSelector(Map.of(),
            List.of(new LabelSelector.Requirement("tier", "In", List.of("web")))), null, 2.0, 20, null,
            Duration.ofMillis(500), Duration.ofSeconds(5)));
  }

  @Test
  void aConfigWithoutPoolsOrTenancyIsTheConfigItWasBefore() {
    ClusterConfig config = ConfigProjection.project(config("{'maxMultiplier':'3'}"));
    assertThat(config.pools()).isEmpty();
    assertThat(config.tenancy()).isEqualTo(Tenancy.NONE);
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "{'pools':{}} | spec.pools: must be a list",
      "{'pools':[{'nodeSelector':{'matchLabels':{'a':'b'}}}]} | spec.pools[0].name: must be a lowercase DNS label",
      "{'pools':[{'name':'Batch','nodeSelector':{'matchLabels':{'a':'b'}}}]} | spec.pools[0].name: must be a lowercase DNS label",
      "{'pools':[{'name':'b'}]} | spec.pools[0].nodeSelector: is required",
      "{'pools':[{'name':'b','nodeSelector':{}}]} | spec.pools[0].nodeSelector: must have matchLabels or matchExpressions",
      "{'pools':[{'name':'b','nodeSelector':{'matchLabels':{'a':'b'}},'maxMultiplier':'150'}]} | spec.pools[0].maxMultiplier: must be at most 100",
      "{'pools':[{'name':'b','nodeSelector':{'matchLabels':{'a':'b'}},'deadband':{'shrink':101}}]} | spec.pools[0].deadband.shrink: must be",
      "{'pools':[{'name':'b','nodeSelector':{'matchLabels':{'a':'b'}},'debouncePeriod':'30s'}]} | spec.pools[0].maxDebounceDelay: must be at least the pool's debouncePeriod (30s)",
      "{'pools':[{'name':'b','nodeSelector':{'matchLabels':{'a':'b'}}},{'name':'b','nodeSelector':{'matchLabels':{'c':'d'}}}]} | spec.pools[1].name: must be unique",
      "{'tenancy':'Tenants'} | spec.tenancy: must be None or Namespaces, got \"Tenants\"",
  })
  void refusesAnInvalidPoolNamingTheField(String spec, String message) {
    assertThatThrownBy(() -> ConfigProjection.project(config(spec)))
        .isInstanceOf(ConfigException.class).hasMessageStartingWith(message);
  }

  @ParameterizedTest
  @CsvSource({"2, 2.0", "0.5, 0.5", "100, 100.0", "0, 0.0", "101, 0.0", "-1, 0.0", "heavy, 0.0", "1e3, 0.0"})
  void theSlackWeightAnnotationIsADecimalUpTo100AndAnythingElseIsIgnored(String annotation, double weight) {
    var ns = new NamespaceBuilder().withNewMetadata().withName("team-a")
        .withAnnotations(Map.of("kube-headroom.dev/slack-weight", annotation)).endMetadata().build();
    assertThat(NamespaceProjection.project(ns, List.of()).slackWeight()).isEqualTo(weight);
  }
}
