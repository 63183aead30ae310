package dev.kubeheadroom.projection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class GoDurationTest {

  @ParameterizedTest(name = "\"{0}\" is {1} ns")
  @CsvSource({
    "2s, 2000000000", "500ms, 500000000", "1m30s, 90000000000", "1.5h, 5400000000000",
    "0, 0", "0s, 0", "10us, 10000", "10µs, 10000", "10μs, 10000", "7ns, 7", "1h2m3s4ms, 3723004000000",
    "+5s, 5000000000", "-5s, -5000000000", ".5s, 500000000", "1.s, 1000000000", "1.5ns, 1"
  })
  void parsesGoDurationSyntax(String text, long nanos) {
    assertThat(GoDuration.parse(text)).isEqualTo(Duration.ofNanos(nanos));
  }

  @ParameterizedTest(name = "\"{0}\" is refused")
  @ValueSource(strings = {"", "2", "s", "2 s", "2sec", "1d", ".s", "-", "2S", "3000000h"})
  void refusesWhatGoRefuses(String text) {
    assertThatThrownBy(() -> GoDuration.parse(text)).isInstanceOf(IllegalArgumentException.class);
  }

  @ParameterizedTest(name = "{0} ns prints as {1}")
  @CsvSource({"2000000000, 2s", "90000000000, 1m30s", "500000000, 500ms", "3600000000000, 1h0m0s",
      "0, 0s", "1500000000, 1.5s"})
  void formatsLikeGo(long nanos, String text) {
    assertThat(GoDuration.format(Duration.ofNanos(nanos))).isEqualTo(text);
  }
}
