package dev.kubeheadroom.scenarios;

import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.BufferedWriter;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.format.DateTimeFormatter;
import java.util.Objects;

/**
 * Writes scenario events in the {@code simulate} watch-log form (docs/design/cli-contract.md): one
 * {@code {"type": "ADDED|MODIFIED|DELETED", "at": "<RFC 3339>", "object": {...}}} per line, the
 * object serialized by fabric8 exactly as the API server's JSON (nulls and empty fields left out).
 * Every line carries its {@code at}, in UTC with millisecond precision when needed.
 */
public final class WatchLogWriter implements Closeable {
  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

  private final Writer out;
  private long lines;

  public WatchLogWriter(Writer out) {
    this.out = Objects.requireNonNull(out, "out");
  }

  /** Writes {@code events} to {@code file} (UTF-8, replaced if it exists); returns the line count. */
  public static long write(Path file, Iterable<ScenarioEvent> events) {
    try (WatchLogWriter writer = new WatchLogWriter(Files.newBufferedWriter(file, StandardCharsets.UTF_8))) {
      for (ScenarioEvent e : events) {
        writer.write(e);
      }
      return writer.lines();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write watch log " + file, e);
    }
  }

  /** One watch-log line, without the line break. */
  public static String line(ScenarioEvent event) {
    return "{\"type\":\"" + event.type().name()
        + "\",\"at\":\"" + DateTimeFormatter.ISO_INSTANT.format(event.at())
        + "\",\"object\":" + SERIALIZATION.asJson(event.object()) + "}";
  }

  public void write(ScenarioEvent event) throws IOException {
    out.write(line(event));
    out.write('\n');
    lines++;
  }

  /** Lines written so far. */
  public long lines() {
    return lines;
  }

  @Override
  public void close() throws IOException {
    if (out instanceof BufferedWriter) {
      out.flush();
    }
    out.close();
  }
}
