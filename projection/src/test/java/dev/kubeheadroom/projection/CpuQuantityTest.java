package dev.kubeheadroom.projection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Quantity;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class CpuQuantityTest {

  @ParameterizedTest(name = "\"{0}\" is {1}m")
  @CsvSource({
    "1.5, 1500", "250m, 250", "2, 2000", "0.1, 100", "0, 0", "0m, 0", "1e3, 1000000",
    "1E3, 1000000", "1e-3, 1", "1.5e2, 150000", "100u, 1", "100n, 1", "1000u, 1", "1001u, 2",
    "1n, 1", "1k, 1000000", "1M, 1000000000", "1Ki, 1024000", ".5, 500", "1., 1000",
    "+2, 2000", "0.0001, 1", "3.0001, 3001", "1500m, 1500", "0.5m, 1", "1P, 1000000000000000000",
    "-0, 0", "9223372036854775807m, 9223372036854775807", "1e-5000, 1", "0e5000, 0"
  })
  void parsesKubernetesCpuQuantitiesToMillicoresRoundingUp(String text, long milli) {
    assertThat(CpuQuantity.parseMilli(text)).isEqualTo(milli);
    assertThat(CpuQuantity.tryParseMilli(text)).hasValue(milli);
  }

  @ParameterizedTest(name = "\"{0}\" is refused")
  @ValueSource(strings = {
    "", "abc", "m", "1.5.5", "1x", "1 ", " 1", "1e", "1e+", "1ee3", "-1", "-250m", "1KI", "1ki",
    "0x10", "1,5", "1Ei0"
  })
  void refusesInvalidOrNegativeQuantitiesWithTheInputInTheMessage(String text) {
    assertThat(CpuQuantity.tryParseMilli(text)).isEmpty();
    assertThatThrownBy(() -> CpuQuantity.parseMilli(text))
        .isInstanceOf(QuantityFormatException.class)
        .hasMessageStartingWith("invalid quantity \"");
  }

  /**
   * apimachinery pkg/api/resource/quantity.go: "Numbers larger or more precise will be capped or
   * rounded up": the API server stores such a quantity, so it is the largest millicore value, not
   * an error (the old expectation, a refusal, was wrong about Kubernetes).
   */
  @ParameterizedTest(name = "\"{0}\" is capped")
  @ValueSource(strings = {"9223372036854775808m", "9223372036854776", "1e20", "1e5000", "9Ei", "1E",
      "99999999999999999999"})
  void capsQuantitiesBeyondTheLongRangeOfMillicores(String text) {
    assertThat(CpuQuantity.parseMilli(text)).isEqualTo(Long.MAX_VALUE);
  }

  @ParameterizedTest(name = "{0}m prints as \"{1}\"")
  @CsvSource({"1500, 1500m", "2000, 2", "0, 0", "1, 1m", "10, 10m", "100000, 100"})
  void formatsTheCanonicalKubernetesString(long milli, String text) {
    assertThat(CpuQuantity.format(milli)).isEqualTo(text);
  }

  @ParameterizedTest(name = "{0}m shows as \"{1}\" and \"{2}\"")
  @CsvSource({"8000, 8000m, 8", "8500, 8500m, 8.5", "250, 250m, 0.25", "0, 0m, 0", "1, 1m, 0.001"})
  void formatsHeadroomsOwnMillicoreAndCoreDisplays(long milli, String asMilli, String asCores) {
    assertThat(CpuQuantity.formatMilli(milli)).isEqualTo(asMilli);
    assertThat(CpuQuantity.formatCores(milli)).isEqualTo(asCores);
  }

  /**
   * A quantity read off a stored object: rounded up as the API server rounds CPU, clamped past a
   * long of millicores, and 0 (never an exception) when missing or unreadable. These
   * cases were the actuator's own conversion's, which this one replaced.
   */
  @ParameterizedTest(name = "{0} is {1}m")
  @CsvSource({
    "1500m, 1500", "2, 2000", "100u, 1", "9223372036854775807m, 9223372036854775807",
    "9000000000000000, 9000000000000000000", "9223372036854776, 9223372036854775807",
    "1e30, 9223372036854775807", "1E, 9223372036854775807", "abc, 0",
  })
  void readsAStoredQuantityRoundingUpAndClampingNeverThrowing(String quantity, long milli) {
    assertThat(CpuQuantity.milliOrZero(new Quantity(quantity))).isEqualTo(milli);
  }

  @org.junit.jupiter.api.Test
  void aMissingQuantityIsZero() {
    assertThat(CpuQuantity.milliOrZero(null)).isZero();
  }

  @ParameterizedTest
  @CsvSource({"1.5, '', 1500", "250, m, 250", "1, e3, 1000000", "100, u, 1", "1, Ki, 1024000"})
  void parsesFabric8QuantitiesWhichSplitAmountAndFormat(String amount, String format, long milli) {
    assertThat(CpuQuantity.parseMilli(new Quantity(amount, format))).isEqualTo(milli);
    assertThat(CpuQuantity.parseMilli(new Quantity(amount + format))).isEqualTo(milli);
  }

  @Property
  void formattingThenParsingGivesBackTheSameMillicores(@ForAll @LongRange(min = 0) long milli) {
    assertThat(CpuQuantity.parseMilli(CpuQuantity.format(milli))).isEqualTo(milli);
  }

  @Property
  void fractionalCoresParseExactlyWithoutFloatingPointError(
      @ForAll @LongRange(min = 0, max = 1_000_000_000L) long cores,
      @ForAll @LongRange(min = 0, max = 999) long fraction) {
    String text = cores + "." + String.format("%03d", fraction);
    assertThat(CpuQuantity.parseMilli(text)).isEqualTo(cores * 1000 + fraction);
  }

  @Property
  void microcoresRoundUpToTheNextMillicore(@ForAll @LongRange(min = 0, max = 1_000_000_000_000L) long micro) {
    long ceil = (micro + 999) / 1000;
    assertThat(CpuQuantity.parseMilli(micro + "u")).isEqualTo(ceil);
    assertThat(CpuQuantity.parseMilli(micro * 1000 + "n")).isEqualTo(ceil);
  }

  @Property
  void exponentFormEqualsPlainForm(@ForAll @LongRange(min = 0, max = 1_000_000) long milli) {
    assertThat(CpuQuantity.parseMilli(milli + "e-3")).isEqualTo(milli);
    assertThat(CpuQuantity.parseMilli(milli + "m")).isEqualTo(milli);
  }
}
