package dev.kubeheadroom.kafka.embedded;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import kafka.tools.StorageTool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The KRaft log directory's identity: reading the cluster id it was formatted with, formatting it
 * (for the broker here and testkit's cluster nodes).
 */
public final class KraftStorage {
  private static final Logger LOG = LoggerFactory.getLogger(KraftStorage.class);
  private static final String META_PROPERTIES = "meta.properties";

  private KraftStorage() {}

  /** The cluster id {@code logDir} was formatted with; null if it never was. */
  public static String clusterId(Path logDir) {
    Path meta = logDir.resolve(META_PROPERTIES);
    if (!Files.exists(meta)) {
      return null;
    }
    Properties props = new Properties();
    try (InputStream in = Files.newInputStream(meta)) {
      props.load(in);
    } catch (IOException e) {
      throw new EmbeddedKafkaException("cannot read " + meta + ": " + e.getMessage(), e);
    }
    String id = props.getProperty("cluster.id");
    if (id == null || id.isBlank()) {
      throw new EmbeddedKafkaException(
          meta + " has no cluster.id; the data directory is damaged (move it away to start afresh)");
    }
    return id;
  }

  /** Formats {@code dataDir} for {@code clusterId} with the broker configuration {@code props}. */
  public static void format(Path dataDir, String clusterId, Properties props) {
    format(dataDir, clusterId, props, List.of());
  }

  /** As {@link #format(Path, String, Properties)}, with more {@code kafka-storage format} arguments. */
  static void format(Path dataDir, String clusterId, Properties props, List<String> moreArguments) {
    Path propsFile = dataDir.resolve("format.properties");
    ByteArrayOutputStream output = new ByteArrayOutputStream();
    try {
      try (OutputStream out = Files.newOutputStream(propsFile)) {
        props.store(out, "written by EmbeddedKafka to format the log directory");
      }
      int rc;
      try (PrintStream print = new PrintStream(output, true, StandardCharsets.UTF_8)) {
        List<String> args = new ArrayList<>(List.of("format", "-t", clusterId, "-c", propsFile.toString()));
        args.addAll(moreArguments);
        rc = StorageTool.execute(args.toArray(String[]::new), print);
      }
      if (rc != 0) {
        throw new EmbeddedKafkaException("cannot format " + dataDir + " (exit code " + rc + "): "
            + output.toString(StandardCharsets.UTF_8).strip());
      }
    } catch (IOException e) {
      throw new EmbeddedKafkaException("cannot format " + dataDir + ": " + e.getMessage(), e);
    } catch (EmbeddedKafkaException e) {
      throw e;
    } catch (RuntimeException e) {
      throw new EmbeddedKafkaException(
          "cannot format " + dataDir + ": " + e.getMessage()
              + " " + output.toString(StandardCharsets.UTF_8).strip(), e);
    } finally {
      try {
        Files.deleteIfExists(propsFile);
      } catch (IOException e) {
        LOG.warn("Cannot delete {}: {}", propsFile, e.toString());
      }
    }
  }
}
