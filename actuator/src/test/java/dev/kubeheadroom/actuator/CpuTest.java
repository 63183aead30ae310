package dev.kubeheadroom.actuator;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Quantity;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link Cpu#toMilli}: rounded up as the API server rounds CPU, and clamped where a quantity the
 * API server stores (apimachinery caps rather than refuses large numbers) exceeds a long of
 * millicores: issue #12, never an exception.
 */
class CpuTest {

  @ParameterizedTest(name = "{0} is {1}m")
  @CsvSource({
    "1500m, 1500", "2, 2000", "100u, 1", "9223372036854775807m, 9223372036854775807",
    "9000000000000000, 9000000000000000000", "9223372036854776, 9223372036854775807",
    "1e30, 9223372036854775807", "1E, 9223372036854775807",
  })
  void convertsAndClampsToTheLongRange(String quantity, long milli) {
    assertThat(Cpu.toMilli(new Quantity(quantity))).isEqualTo(milli);
  }
}
