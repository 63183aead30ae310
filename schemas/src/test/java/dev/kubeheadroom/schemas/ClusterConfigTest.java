package dev.kubeheadroom.schemas;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kubeheadroom.policy.PolicyConfig;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ClusterConfigTest {
  private static NamespaceInfo ns(String name, Map<String, String> labels) {
    return new NamespaceInfo(name, labels, 0);
  }

  @Test
  void defaultsMatchConfigMdAndThePolicyDefaults() {
    ClusterConfig c = ClusterConfig.DEFAULTS;
    assertThat(c.dryRun()).isTrue();
    assertThat(c.toPolicyConfig()).isEqualTo(PolicyConfig.DEFAULTS);
    assertThat(c.debouncePeriod()).isEqualTo(Duration.ofSeconds(2));
    assertThat(c.maxDebounceDelay()).isEqualTo(Duration.ofSeconds(10));
    assertThat(c.backoffPeriod()).isEqualTo(Duration.ofSeconds(60));
    assertThat(c.excludedNamespaces()).containsExactly("kube-system");
    assertThat(c.webhook().initialMultiplier()).isEqualTo(2.0);
  }

  @Test
  void theModeLabelIsAFailClosedEnumKeyword() {
    ClusterConfig c = ClusterConfig.DEFAULTS;
    assertThat(c.manages(ns("a", Map.of(HeadroomKeys.MODE_LABEL, "managed")))).isTrue();
    assertThat(c.manages(ns("a", Map.of(HeadroomKeys.MODE_LABEL, "true")))).isFalse();
    assertThat(c.manages(ns("a", Map.of(HeadroomKeys.MODE_LABEL, "yes")))).isFalse();
    assertThat(c.manages(ns("a", Map.of()))).isFalse();
    assertThat(c.manages(null)).isFalse();
  }

  @Test
  void excludedNamespacesAreNeverManagedEvenWhenLabelled() {
    assertThat(ClusterConfig.DEFAULTS.manages(
        ns("kube-system", Map.of(HeadroomKeys.MODE_LABEL, "managed")))).isFalse();
  }

  @Test
  void aNamespaceSelectorOptsInMatchingNamespacesUnlessExplicitlyUnmanaged() {
    var selector = new LabelSelector(Map.of("tier", "batch"),
        List.of(new LabelSelector.Requirement("env", "In", List.of("prod", "stage"))));
    ClusterConfig c = new ClusterConfig(1, "Proportional", false, 1000, 10, 10, 10, 5,
        Duration.ofSeconds(2), Duration.ofSeconds(10), Duration.ofSeconds(60),
        ClusterConfig.RateLimits.DEFAULTS, ClusterConfig.Webhook.DEFAULTS, selector, List.of());
    assertThat(c.manages(ns("a", Map.of("tier", "batch", "env", "prod")))).isTrue();
    assertThat(c.manages(ns("a", Map.of("tier", "batch", "env", "dev")))).isFalse();
    assertThat(c.manages(ns("a", Map.of("tier", "batch", "env", "prod",
        HeadroomKeys.MODE_LABEL, "unmanaged")))).isFalse();
  }

  @Test
  void invalidValuesAreRefusedWithTheFieldNamed() {
    assertThatThrownBy(() -> new ClusterConfig(1, "Proportional", false, 1000, 101, 10, 10, 5,
        Duration.ofSeconds(2), Duration.ofSeconds(10), Duration.ofSeconds(60),
        ClusterConfig.RateLimits.DEFAULTS, ClusterConfig.Webhook.DEFAULTS, null, null))
        .hasMessageContaining("maxMultiplier");
    assertThatThrownBy(() -> new ClusterConfig(1, "Equal", false, 1000, 10, 10, 10, 5,
        Duration.ofSeconds(2), Duration.ofSeconds(10), Duration.ofSeconds(60),
        ClusterConfig.RateLimits.DEFAULTS, ClusterConfig.Webhook.DEFAULTS, null, null))
        .hasMessageContaining("policy");
    assertThatThrownBy(() -> new ClusterConfig(1, "Proportional", false, 1000, 10, 10, 120, 5,
        Duration.ofSeconds(2), Duration.ofSeconds(10), Duration.ofSeconds(60),
        ClusterConfig.RateLimits.DEFAULTS, ClusterConfig.Webhook.DEFAULTS, null, null))
        .hasMessageContaining("deadband.grow");
  }

  @Test
  void speedingUpDividesEveryTimeKnob() {
    ClusterConfig fast = ClusterConfig.DEFAULTS.speedUp(10);
    assertThat(fast.debouncePeriod()).isEqualTo(Duration.ofMillis(200));
    assertThat(fast.maxDebounceDelay()).isEqualTo(Duration.ofSeconds(1));
    assertThat(fast.backoffPeriod()).isEqualTo(Duration.ofSeconds(6));
    assertThat(fast.rateLimits().perNodePatchesPerSecond()).isEqualTo(100);
  }
}
