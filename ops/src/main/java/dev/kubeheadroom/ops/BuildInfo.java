package dev.kubeheadroom.ops;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * What is running, for {@code headroom_build_info{version,java_version} 1}: the Maven version
 * (written into {@code build-info.properties} by resource filtering, so it is right in tests and
 * in the jar alike) and the JVM's version.
 */
public record BuildInfo(String version, String javaVersion) {
  private static final String RESOURCE = "build-info.properties";

  public static BuildInfo current() {
    Properties p = new Properties();
    try (InputStream in = BuildInfo.class.getResourceAsStream(RESOURCE)) {
      if (in != null) {
        p.load(in);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new BuildInfo(p.getProperty("version", "unknown"),
        System.getProperty("java.version", "unknown"));
  }

  void register(MeterRegistry registry, String name) {
    Gauge.builder(name, () -> 1.0)
        .description("Always 1; labelled with the version that runs")
        .tag("version", version)
        .tag("java_version", javaVersion)
        .strongReference(true)
        .register(registry);
  }
}
