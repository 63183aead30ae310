package dev.kubeheadroom.cli.logging;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.LoggerContext;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kubeheadroom.cli.logging.LogSettings.Format;
import dev.kubeheadroom.cli.logging.LogSettings.Level;
import dev.kubeheadroom.ops.PodLogContext;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;

/** What a process's stderr looks like under each {@link LogSettings}, on a private LoggerContext. */
class HeadroomLogbackConfiguratorTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void theServiceFileNamesTheConfigurator() throws Exception {
    try (var in = getClass().getResourceAsStream(
        "/META-INF/services/ch.qos.logback.classic.spi.Configurator")) {
      assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8).strip())
          .isEqualTo(HeadroomLogbackConfigurator.class.getName());
    }
  }

  @Test
  void jsonLinesCarryLevelLoggerMessageAndThePodFromTheMdc() throws Exception {
    List<String> lines = stderrOf(new LogSettings(Level.INFO, Format.JSON, List.of()), context -> {
      Logger log = context.getLogger("dev.kubeheadroom.actuator.Actuator");
      try (var pod = PodLogContext.of("team-a", "web-1")) {
        log.info("applied {} millicores", 1500);
      }
      log.info("no pod here");
    });

    assertThat(lines).hasSize(2);
    JsonNode first = JSON.readTree(lines.get(0));
    assertThat(first.path("level").asText()).isEqualTo("INFO");
    assertThat(first.path("loggerName").asText()).isEqualTo("dev.kubeheadroom.actuator.Actuator");
    assertThat(first.path("formattedMessage").asText()).isEqualTo("applied 1500 millicores");
    assertThat(first.path("mdc").path("namespace").asText()).isEqualTo("team-a");
    assertThat(first.path("mdc").path("pod").asText()).isEqualTo("web-1");
    assertThat(first.path("timestamp").asLong()).isPositive();
    assertThat(JSON.readTree(lines.get(1)).path("mdc").path("pod").isMissingNode()).isTrue();
  }

  @Test
  void textLinesNameThePodOnlyWhenThereIsOne() {
    List<String> lines = stderrOf(LogSettings.DEFAULTS, context -> {
      Logger log = context.getLogger("dev.kubeheadroom.actuator.Actuator");
      try (var pod = PodLogContext.of("team-a", "web-1")) {
        log.info("applied");
      }
      log.info("idle");
    });

    assertThat(lines.get(0)).matches("\\d{4}-\\d\\d-\\d\\dT\\S+ INFO Actuator - applied \\[.*\\]")
        .contains("namespace=team-a").contains("pod=web-1");
    assertThat(lines.get(1)).endsWith("INFO Actuator - idle");
  }

  @Test
  void theLevelAppliesToHeadroomWhileLibrariesStayAtWarn() {
    List<String> lines = stderrOf(new LogSettings(Level.DEBUG, Format.TEXT, List.of()), context -> {
      context.getLogger("dev.kubeheadroom.topology.X").debug("mine");
      context.getLogger("org.apache.kafka.clients.Y").info("library chatter");
      context.getLogger("org.apache.kafka.clients.Y").warn("library warning");
    });

    assertThat(lines).hasSize(2);
    assertThat(lines.get(0)).endsWith("DEBUG X - mine");
    assertThat(lines.get(1)).endsWith("WARN Y - library warning");
  }

  @Test
  void errorSilencesHeadroomWarningsAndABadValueIsReportedOnce() {
    assertThat(stderrOf(new LogSettings(Level.ERROR, Format.TEXT, List.of()),
        context -> context.getLogger("dev.kubeheadroom.X").warn("hidden"))).isEmpty();

    List<String> lines = stderrOf(LogSettings.from(java.util.Map.of("HEADROOM_LOG_FORMAT", "xml")), c -> {});
    assertThat(lines).singleElement().asString()
        .contains("WARN HeadroomLogbackConfigurator - HEADROOM_LOG_FORMAT=xml is not one of text|json");
  }

  private static List<String> stderrOf(LogSettings settings, Consumer<LoggerContext> logging) {
    PrintStream original = System.err;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    LoggerContext context = new LoggerContext();
    context.setMDCAdapter(org.slf4j.MDC.getMDCAdapter()); // the process's, which PodLogContext fills
    try {
      System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
      HeadroomLogbackConfigurator.apply(context, settings);
      logging.accept(context);
    } finally {
      context.stop();
      System.setErr(original);
    }
    return captured.toString(StandardCharsets.UTF_8).lines().toList();
  }
}
