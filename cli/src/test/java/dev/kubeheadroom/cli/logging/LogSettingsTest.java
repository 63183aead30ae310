package dev.kubeheadroom.cli.logging;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.cli.logging.LogSettings.Format;
import dev.kubeheadroom.cli.logging.LogSettings.Level;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LogSettingsTest {
  @Test
  void unsetMeansInfoAndText() {
    assertThat(LogSettings.from(Map.of())).isEqualTo(LogSettings.DEFAULTS);
    assertThat(LogSettings.from(Map.of("HEADROOM_LOG_LEVEL", " ", "HEADROOM_LOG_FORMAT", "")))
        .isEqualTo(LogSettings.DEFAULTS);
  }

  @Test
  void valuesAreCaseInsensitiveAndWarningIsWarn() {
    LogSettings settings = LogSettings.from(Map.of("HEADROOM_LOG_LEVEL", "Debug", "HEADROOM_LOG_FORMAT", "JSON"));
    assertThat(settings.level()).isEqualTo(Level.DEBUG);
    assertThat(settings.format()).isEqualTo(Format.JSON);
    assertThat(LogSettings.from(Map.of("HEADROOM_LOG_LEVEL", "warning")).level()).isEqualTo(Level.WARN);
  }

  @Test
  void anUnknownValueFallsBackToTheDefaultAndSaysWhy() {
    LogSettings settings = LogSettings.from(Map.of("HEADROOM_LOG_LEVEL", "verbose", "HEADROOM_LOG_FORMAT", "xml"));

    assertThat(settings.level()).isEqualTo(Level.INFO);
    assertThat(settings.format()).isEqualTo(Format.TEXT);
    assertThat(settings.problems()).containsExactly(
        "HEADROOM_LOG_LEVEL=verbose is not one of trace|debug|info|warn|error; using info",
        "HEADROOM_LOG_FORMAT=xml is not one of text|json; using text");
  }
}
