package dev.kubeheadroom.cli.preflight;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.LimitRange;
import io.fabric8.kubernetes.api.model.LimitRangeBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@link LimitRangeCheck} reads LimitRanges as the namespace projection does
 * ({@code LimitRangeCpu}): LimitRanger (plugin/pkg/admission/limitranger/admission.go) enforces
 * a Pod max and a limit/request ratio on every resize, so both are caps worth a warning.
 */
class LimitRangeCheckTest {

  private static Cluster clusterWith(LimitRange... limitRanges) {
    return new Cluster(new KubeVersion("v1.35.0", 1, 35), new ConfigState.Absent(),
        List.of(new NamespaceBuilder().withNewMetadata().withName("team-a")
            .withLabels(Map.of("kube-headroom.dev/mode", "managed")).endMetadata().build()),
        Listing.of(List.of()), Listing.of(List.of(limitRanges)), Listing.of(List.of()),
        Listing.of(List.of()), Listing.of(List.of()), Listing.of(List.of()));
  }

  @Test
  void aPodMaxAndALimitToRequestRatioWarnToo() {
    LimitRange caps = new LimitRangeBuilder()
        .withNewMetadata().withName("caps").withNamespace("team-a").endMetadata()
        .withNewSpec()
        .addNewLimit().withType("Pod").withMax(Map.of("cpu", new Quantity("6"))).endLimit()
        .addNewLimit().withType("Container").withMaxLimitRequestRatio(Map.of("cpu", new Quantity("2.5"))).endLimit()
        .endSpec().build();

    Result result = new LimitRangeCheck().run(clusterWith(caps));

    assertThat(result.status()).isEqualTo(Status.WARN);
    assertThat(result.finding()).isEqualTo("limits will plateau at 6 in team-a (LimitRange caps, Pod max.cpu)"
        + ", limit/request 2.5 in team-a (LimitRange caps, Container maxLimitRequestRatio.cpu)");
  }

  @Test
  void limitRangesOfUnmanagedNamespacesOrWithoutANamespaceAreNotCaps() {
    LimitRange elsewhere = new LimitRangeBuilder()
        .withNewMetadata().withName("other").withNamespace("team-b").endMetadata()
        .withNewSpec().addNewLimit().withType("Container").withMax(Map.of("cpu", new Quantity("1"))).endLimit()
        .endSpec().build();
    LimitRange noNamespace = new LimitRangeBuilder(elsewhere).editMetadata().withNamespace(null).endMetadata().build();

    assertThat(new LimitRangeCheck().run(clusterWith(elsewhere, noNamespace)).status()).isEqualTo(Status.PASS);
  }
}
