package dev.kubeheadroom.projection;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.testkit.fuzz.FuzzCorpus;
import dev.kubeheadroom.testkit.fuzz.HostileDocuments;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.nio.charset.StandardCharsets;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

/**
 * The HeadroomConfig spec reader's fuzzer: generated objects ({@link HeadroomConfigDocuments}) and
 * the corpus's objects ({@code src/test/resources/fuzz/headroom-config}, findings included) with one
 * to four mutations ({@link HostileDocuments}), each through {@link LastGoodConfig#offer} and held to
 * {@link HeadroomConfigVerdicts#holds}. {@code mvn verify} runs a short pass
 * ({@code @Property} default tries, or jqwik.tries.default); {@code -Pfuzz-long} a long one
 * (docs/reliability.md). A failure is shrunk by jqwik; keep it as a finding in the corpus.
 */
class HeadroomConfigFuzzProperties {

  @Property
  void aGeneratedConfigIsAVerdictOrANamedRefusal(@ForAll("generated") byte[] document) {
    GenericKubernetesResource object = HeadroomConfigVerdicts.object(document);
    assertThat(object).as("a generated object reads").isNotNull();
    LastGoodConfig verdict = HeadroomConfigVerdicts.holds(object, new String(document, StandardCharsets.UTF_8));
    Statistics.label("verdict").collect(verdict.refused() ? "refused" : "accepted");
  }

  @Property
  void aMutatedConfigIsAVerdictOrANamedRefusal(@ForAll("mutated") byte[] document) {
    GenericKubernetesResource object = HeadroomConfigVerdicts.object(document);
    if (object != null) {
      HeadroomConfigVerdicts.holds(object, new String(document, StandardCharsets.UTF_8));
    }
  }

  @Provide
  Arbitrary<byte[]> generated() {
    return HeadroomConfigDocuments.documents();
  }

  @Provide
  Arbitrary<byte[]> mutated() {
    return HostileDocuments.mutated(FuzzCorpus.contents(HeadroomConfigFuzzProperties.class, "headroom-config"));
  }
}
