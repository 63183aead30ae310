package dev.kubeheadroom.cli.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.JsonEncoder;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ConfiguratorRank;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.encoder.Encoder;
import ch.qos.logback.core.spi.ContextAwareBase;
import java.util.Map;

/**
 * Logback's configuration for every headroom process, from {@link LogSettings} (found by Logback
 * through {@code META-INF/services}; ranked above {@code logback.xml}, so a stray one on the class
 * path cannot change the operator's logs). All output goes to stderr, leaving stdout to the
 * commands' results ({@code policy}, {@code simulate} print JSON there).
 *
 * <p>Text: {@code 2026-12-01T19:15:23.123+0000 INFO Actuator - message [namespace=ns, pod=p]},
 * the bracket only when the line is about a pod (its MDC). JSON: one object per line from Logback's
 * {@link JsonEncoder} ({@code timestamp}, {@code level}, {@code loggerName}, {@code mdc} with
 * {@code namespace}/{@code pod}, {@code message}, {@code throwable}).
 */
@ConfiguratorRank(ConfiguratorRank.CUSTOM_HIGH_PRIORITY)
public final class HeadroomLogbackConfigurator extends ContextAwareBase implements Configurator {
  /** The root logger's appender to stderr ({@code demo} detaches it while its logs go to a file). */
  public static final String STDERR_APPENDER = "stderr";
  static final String TEXT_PATTERN =
      "%d{yyyy-MM-dd'T'HH:mm:ss.SSSZ} %level %logger{0} - %msg%replace( [%mdc]){' \\[\\]', ''}%n";

  /**
   * Loggers quieter than the rest: a Streams 4.x deprecation notice, the replay's temporary state
   * directory, the embedded broker racing itself to create __transaction_state, fabric8's
   * version notice and the client's reconnect chatter (each is benign and repeats).
   */
  private static final Map<String, Level> QUIETED = Map.of(
      "org.apache.kafka.streams.processor.internals.StateDirectory", Level.ERROR,
      "org.apache.kafka.streams.StreamsConfig", Level.ERROR,
      "kafka.server.DefaultAutoTopicCreationManager", Level.ERROR,
      "io.fabric8.kubernetes.client.utils.VersionUsageUtils", Level.ERROR,
      "org.apache.kafka.clients.NetworkClient", Level.ERROR);

  @Override
  public ExecutionStatus configure(LoggerContext context) {
    apply(context, LogSettings.fromEnvironment());
    return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
  }

  /** (Re)configures {@code context} for {@code settings}; tests call it on their own context. */
  public static void apply(LoggerContext context, LogSettings settings) {
    context.reset();
    ConsoleAppender<ILoggingEvent> stderr = new ConsoleAppender<>();
    stderr.setContext(context);
    stderr.setName(STDERR_APPENDER);
    stderr.setTarget("System.err");
    stderr.setEncoder(encoder(context, settings.format()));
    stderr.start();

    Level headroom = Level.toLevel(settings.level().name());
    Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
    root.addAppender(stderr);
    // Libraries at WARN, unless Headroom's own level is coarser (error): then that.
    root.setLevel(headroom.isGreaterOrEqual(Level.WARN) ? headroom : Level.WARN);
    context.getLogger("dev.kubeheadroom").setLevel(headroom);
    QUIETED.forEach((name, level) -> context.getLogger(name).setLevel(level));
    Logger self = context.getLogger(HeadroomLogbackConfigurator.class);
    settings.problems().forEach(problem -> self.warn(problem));
  }

  /** The encoder of every headroom log line in {@code format}; {@code demo} writes its log file with it too. */
  public static Encoder<ILoggingEvent> encoder(LoggerContext context, LogSettings.Format format) {
    if (format == LogSettings.Format.JSON) {
      JsonEncoder json = new JsonEncoder();
      json.setContext(context);
      json.setWithSequenceNumber(false);
      json.setWithNanoseconds(false);
      json.setWithContext(false);
      json.setWithArguments(false);
      json.setWithMessage(false); // the formatted message only: no "{}" templates to join
      json.setWithFormattedMessage(true);
      json.start();
      return json;
    }
    PatternLayoutEncoder text = new PatternLayoutEncoder();
    text.setContext(context);
    text.setPattern(TEXT_PATTERN);
    text.start();
    return text;
  }
}
