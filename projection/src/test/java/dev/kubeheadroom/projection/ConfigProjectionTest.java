package dev.kubeheadroom.projection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kubeheadroom.schemas.ClusterConfig;
import dev.kubeheadroom.schemas.LabelSelector;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ConfigProjectionTest {
  static final ObjectMapper JSON = new ObjectMapper();

  /** A HeadroomConfig named cluster at generation 7 with this spec (JSON, single quotes allowed). */
  static GenericKubernetesResource config(String specJson) {
    String json = "{'apiVersion':'kube-headroom.dev/v1alpha1','kind':'HeadroomConfig',"
        + "'metadata':{'name':'cluster','generation':7}" + (specJson == null ? "" : ",'spec':" + specJson) + "}";
    try {
      return JSON.readValue(json.replace('\'', '"'), GenericKubernetesResource.class);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  @Test
  void anEmptySpecGivesTheConfigMdDefaultsWithTheObjectsGeneration() {
    ClusterConfig config = ConfigProjection.project(config("{}"));

    assertThat(config).isEqualTo(new ClusterConfig(7, "Proportional", true, 1000, 10.0, 10, 10, 5,
        Duration.ofSeconds(2), Duration.ofSeconds(10), Duration.ofSeconds(60),
        ClusterConfig.RateLimits.DEFAULTS, ClusterConfig.Webhook.DEFAULTS, LabelSelector.NONE,
        List.of("kube-system")));
    assertThat(ConfigProjection.project(config(null))).isEqualTo(config);
  }

  @Test
  void readsEveryFieldOfTheConfigMdExample() {
    ClusterConfig config = ConfigProjection.project(config("""
        {'policy':'Proportional','dryRun':false,'minBurstFloor':'1500m','maxMultiplier':'2.5',
         'quantum':'50m','deadband':{'grow':20,'shrink':3},'debouncePeriod':'500ms',
         'maxDebounceDelay':'1m30s','backoffPeriod':'2m','rateLimits':{'perNodePatchesPerSecond':5,
         'clientQPS':20.5,'clientBurst':40},'webhook':{'enabled':false,'initialMultiplier':'1.5'},
         'namespaceSelector':{'matchLabels':{'tier':'web'},'matchExpressions':[{'key':'env',
         'operator':'In','values':['prod']}]},'excludedNamespaces':['kube-system','monitoring']}"""));

    assertThat(config.dryRun()).isFalse();
    assertThat(config.minBurstFloorMilli()).isEqualTo(1500);
    assertThat(config.maxMultiplier()).isEqualTo(2.5);
    assertThat(config.quantumMilli()).isEqualTo(50);
    assertThat(config.deadbandGrowPercent()).isEqualTo(20);
    assertThat(config.deadbandShrinkPercent()).isEqualTo(3);
    assertThat(config.debouncePeriod()).isEqualTo(Duration.ofMillis(500));
    assertThat(config.maxDebounceDelay()).isEqualTo(Duration.ofSeconds(90));
    assertThat(config.backoffPeriod()).isEqualTo(Duration.ofMinutes(2));
    assertThat(config.rateLimits()).isEqualTo(new ClusterConfig.RateLimits(5, 20.5, 40));
    assertThat(config.webhook()).isEqualTo(new ClusterConfig.Webhook(false, 1.5));
    assertThat(config.namespaceSelector().matches(Map.of("tier", "web", "env", "prod"))).isTrue();
    assertThat(config.namespaceSelector().matches(Map.of("tier", "web", "env", "dev"))).isFalse();
    assertThat(config.excludedNamespaces()).containsExactly("kube-system", "monitoring");
  }

  @Test
  void quantitiesAndDecimalsMayAlsoBeWrittenAsYamlNumbers() {
    ClusterConfig config = ConfigProjection.project(config("{'minBurstFloor':2,'maxMultiplier':0,'quantum':0.01}"));

    assertThat(config.minBurstFloorMilli()).isEqualTo(2000);
    assertThat(config.maxMultiplier()).isZero();
    assertThat(config.quantumMilli()).isEqualTo(10);
  }

  @Test
  void anExplicitlyEmptyExclusionListExcludesNothing() {
    assertThat(ConfigProjection.project(config("{'excludedNamespaces':[]}")).excludedNamespaces()).isEmpty();
  }

  @ParameterizedTest(name = "{0} → {1}")
  @CsvSource(delimiter = '|', value = {
    "{'policy':'Greedy'}                      | spec.policy: must be Proportional, got \"Greedy\"",
    "{'dryRun':'yes'}                         | spec.dryRun: must be true or false, got \"yes\"",
    "{'minBurstFloor':'lots'}                 | spec.minBurstFloor: must be a non-negative CPU quantity (like \"1\" or \"10m\"), got \"lots\"",
    "{'minBurstFloor':'-1'}                   | spec.minBurstFloor: must be a non-negative CPU quantity (like \"1\" or \"10m\"), got \"-1\"",
    "{'maxMultiplier':'150'}                  | spec.maxMultiplier: must be at most 100, got \"150\"",
    "{'maxMultiplier':'-1'}                   | spec.maxMultiplier: must be at least 0, got \"-1\"",
    "{'maxMultiplier':'ten'}                  | spec.maxMultiplier: must be a decimal number, got \"ten\"",
    "{'maxMultiplier':true}                   | spec.maxMultiplier: must be a decimal string, got \"true\"",
    "{'quantum':'1x'}                         | spec.quantum: must be a non-negative CPU quantity (like \"1\" or \"10m\"), got \"1x\"",
    "{'quantum':'0m'}                         | spec.quantum: must be greater than 0, got \"0m\"",
    "{'deadband':{'grow':101}}                | spec.deadband.grow: must be from 0 to 100, got \"101\"",
    "{'deadband':{'shrink':-1}}               | spec.deadband.shrink: must be from 0 to 100, got \"-1\"",
    "{'deadband':{'grow':'10%'}}              | spec.deadband.grow: must be an integer percent from 0 to 100, got \"10%\"",
    "{'deadband':{'grow':10.5}}               | spec.deadband.grow: must be an integer percent from 0 to 100, got \"10.5\"",
    "{'deadband':5}                           | spec.deadband: must be an object, got \"5\"",
    "{'debouncePeriod':'2'}                   | spec.debouncePeriod: missing unit (ns, us, ms, s, m, h), got \"2\"",
    "{'debouncePeriod':'2d'}                  | spec.debouncePeriod: unknown unit \"d\" (ns, us, ms, s, m, h), got \"2d\"",
    "{'debouncePeriod':2}                     | spec.debouncePeriod: must be a duration string (like 2s, 500ms, 1m30s), got \"2\"",
    "{'backoffPeriod':'-1s'}                  | spec.backoffPeriod: must not be negative, got \"-1s\"",
    "{'debouncePeriod':'20s'}                 | spec.maxDebounceDelay: must be at least debouncePeriod (20s), got \"10s\"",
    "{'rateLimits':{'clientQPS':0}}           | spec.rateLimits.clientQPS: must be a number greater than 0, got \"0\"",
    "{'rateLimits':{'perNodePatchesPerSecond':'x'}} | spec.rateLimits.perNodePatchesPerSecond: must be a number greater than 0, got \"x\"",
    "{'rateLimits':{'clientBurst':0}}         | spec.rateLimits.clientBurst: must be at least 1, got \"0\"",
    "{'rateLimits':{'clientBurst':1.5}}       | spec.rateLimits.clientBurst: must be an integer, got \"1.5\"",
    "{'webhook':{'enabled':1}}                | spec.webhook.enabled: must be true or false, got \"1\"",
    "{'webhook':{'initialMultiplier':'0.5'}}  | spec.webhook.initialMultiplier: must be at least 1, got \"0.5\"",
    "{'namespaceSelector':{'matchLabels':{'a':1}}} | spec.namespaceSelector.matchLabels.a: must be a string, got \"1\"",
    "{'namespaceSelector':{'matchExpressions':[{'key':'a','operator':'Has'}]}} | spec.namespaceSelector.matchExpressions[0].operator: must be one of In, NotIn, Exists, DoesNotExist, got \"Has\"",
    "{'namespaceSelector':{'matchExpressions':[{'operator':'Exists'}]}} | spec.namespaceSelector.matchExpressions[0].key: is required",
    "{'namespaceSelector':{'matchExpressions':[{'key':'a','operator':'In'}]}} | spec.namespaceSelector.matchExpressions[0].values: must not be empty for operator In",
    "{'namespaceSelector':{'matchExpressions':[{'key':'a','operator':'Exists','values':['x']}]}} | spec.namespaceSelector.matchExpressions[0].values: must be empty for operator Exists",
    "{'excludedNamespaces':'kube-system'}     | spec.excludedNamespaces: must be a list of strings, got \"kube-system\"",
    "{'excludedNamespaces':['a',2]}           | spec.excludedNamespaces[1]: must be a string, got \"2\"",
    "[]                                       | spec: must be an object, got \"[]\""
  })
  void refusesAnInvalidFieldWithOneLineNamingIt(String spec, String message) {
    assertThatThrownBy(() -> ConfigProjection.project(config(spec)))
        .isInstanceOf(ConfigException.class)
        .hasMessage(message)
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
  }

  @Test
  void refusesAnObjectThatIsNotTheClusterSingleton() {
    GenericKubernetesResource other = config("{}");
    other.getMetadata().setName("mine");

    assertThatThrownBy(() -> ConfigProjection.project(other))
        .isInstanceOf(ConfigException.class)
        .hasMessage("metadata.name: must be \"cluster\", got \"mine\"");
  }

  @Test
  void refusesAnotherApiVersion() {
    GenericKubernetesResource other = config("{}");
    other.setApiVersion("kube-headroom.dev/v2");

    assertThatThrownBy(() -> ConfigProjection.project(other))
        .hasMessage("apiVersion: must be kube-headroom.dev/v1alpha1, got \"kube-headroom.dev/v2\"");
  }

  @Test
  void lastGoodConfigKeepsTheValidConfigWhenANewOneIsRefusedAndSaysWhy() {
    LastGoodConfig state = LastGoodConfig.INITIAL;
    assertThat(state.config()).isEqualTo(ClusterConfig.DEFAULTS);

    state = state.offer(config("{'dryRun':false,'maxMultiplier':'4'}"));
    assertThat(state.refused()).isFalse();
    assertThat(state.config().maxMultiplier()).isEqualTo(4.0);

    state = state.offer(config("{'maxMultiplier':'150'}"));
    assertThat(state.config().maxMultiplier()).isEqualTo(4.0);
    assertThat(state.config().dryRun()).isFalse();
    assertThat(state.lastRefusal()).contains("spec.maxMultiplier: must be at most 100, got \"150\"");

    state = state.offer(config("{'maxMultiplier':'5'}"));
    assertThat(state.lastRefusal()).isEmpty();
    assertThat(state.config().maxMultiplier()).isEqualTo(5.0);

    assertThat(state.deleted()).isEqualTo(LastGoodConfig.INITIAL);
  }

  @Test
  void aNumberPastADoubleIsRefusedNamingTheFieldNotAnInternalError() {
    // 1e400 reads as Infinity (a fuzzer's finding: the refusal's quoting threw)
    assertThatThrownBy(() -> ConfigProjection.project(config("1e400")))
        .isInstanceOf(ConfigException.class).hasMessageStartingWith("spec:").hasMessageContaining("Infinity");
    assertThatThrownBy(() -> ConfigProjection.project(config("{'deadband':1e400}")))
        .isInstanceOf(ConfigException.class).hasMessageStartingWith("spec.deadband:");
    // ... and as a quantity, a decimal or a rate, where the value itself was spelled as a BigDecimal
    assertThatThrownBy(() -> ConfigProjection.project(config("{'minBurstFloor':1e400}")))
        .isInstanceOf(ConfigException.class)
        .hasMessage("spec.minBurstFloor: must be a CPU quantity, got \"Infinity\"");
    assertThatThrownBy(() -> ConfigProjection.project(config("{'webhook':{'initialMultiplier':-1e400}}")))
        .isInstanceOf(ConfigException.class)
        .hasMessage("spec.webhook.initialMultiplier: must be a decimal string, got \"-Infinity\"");
    assertThatThrownBy(() -> ConfigProjection.project(config("{'rateLimits':{'clientQPS':1e400}}")))
        .isInstanceOf(ConfigException.class).hasMessageStartingWith("spec.rateLimits.clientQPS: ");
  }
}
