package dev.kubeheadroom.launcher;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.FileAppender;
import dev.kubeheadroom.cli.logging.HeadroomLogbackConfigurator;
import dev.kubeheadroom.cli.logging.LogSettings;
import java.nio.file.Path;
import org.slf4j.ILoggerFactory;
import org.slf4j.LoggerFactory;

/**
 * The demo's logs: every logger of the process (Kafka, Streams, fabric8, the API double,
 * Headroom's own) goes to {@link #FILE_NAME} in the demo's directory, in the format and at the
 * levels every headroom process logs with ({@link HeadroomLogbackConfigurator}); stderr keeps them
 * only when verbose, so the screen tells the run's story. {@link #close} puts stderr back.
 */
final class DemoLog implements AutoCloseable {
  static final String FILE_NAME = "pipeline.log";

  private final Path file;
  private final Logger root;
  private final FileAppender<ILoggingEvent> appender;
  private final Appender<ILoggingEvent> detached;

  private DemoLog(Path file, Logger root, FileAppender<ILoggingEvent> appender, Appender<ILoggingEvent> detached) {
    this.file = file;
    this.root = root;
    this.appender = appender;
    this.detached = detached;
  }

  /** Sends the process's logs to {@code directory}/{@value #FILE_NAME}, and to stderr too when {@code verbose}. */
  static DemoLog into(Path directory, boolean verbose) {
    ILoggerFactory factory = LoggerFactory.getILoggerFactory();
    if (!(factory instanceof LoggerContext context)) {
      // The launcher ships Logback; any other backend keeps logging where it was configured to.
      throw new IllegalStateException("the demo's log file needs Logback, found " + factory.getClass().getName());
    }
    Path file = directory.resolve(FILE_NAME);
    FileAppender<ILoggingEvent> appender = new FileAppender<>();
    appender.setContext(context);
    appender.setName("demo-file");
    appender.setFile(file.toString());
    appender.setEncoder(HeadroomLogbackConfigurator.encoder(context, LogSettings.fromEnvironment().format()));
    appender.start();
    Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
    root.addAppender(appender);
    Appender<ILoggingEvent> stderr = verbose ? null : root.getAppender(HeadroomLogbackConfigurator.STDERR_APPENDER);
    if (stderr != null) {
      root.detachAppender(stderr);
    }
    return new DemoLog(file, root, appender, stderr);
  }

  Path file() {
    return file;
  }

  @Override
  public void close() {
    if (detached != null) {
      root.addAppender(detached);
    }
    root.detachAppender(appender);
    appender.stop();
  }
}
