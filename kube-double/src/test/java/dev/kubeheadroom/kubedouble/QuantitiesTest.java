package dev.kubeheadroom.kubedouble;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The double's own quantity rules (kept apart from the product's parser: DESIGN.md). */
class QuantitiesTest {

  /**
   * apimachinery pkg/api/resource/quantity.go {@code MilliValue()} rounds up to the next whole
   * milli-unit; the kubelet sums requests that way when it admits a resize (pkg/kubelet).
   */
  @ParameterizedTest(name = "{0} cores is {1}m")
  @CsvSource({"1.5, 1500", "0.0001, 1", "0.001, 1", "0.0011, 2", "2, 2000", "0, 0"})
  void cpuMilliRoundsUpAsMilliValueDoes(String cores, long milli) {
    assertThat(Quantities.cpuMilli(new BigDecimal(cores))).isEqualTo(milli);
  }

  @Test
  void anAbsentAmountIsZeroMillicores() {
    assertThat(Quantities.cpuMilli(null)).isZero();
  }

  /**
   * apimachinery pkg/api/resource/quantity.go {@code CanonicalizeBytes}: whole cores print
   * without a suffix, else in milli; finer amounts are kept as given.
   */
  @ParameterizedTest(name = "\"{0}\" is stored as \"{1}\"")
  @CsvSource({"0.5, 500m", "2000m, 2", "1.5, 1500m", "100u, 100u"})
  void canonicalCpuIsTheApiServersStoredForm(String given, String stored) {
    assertThat(Quantities.canonicalCpu(given)).isEqualTo(stored);
  }
}
