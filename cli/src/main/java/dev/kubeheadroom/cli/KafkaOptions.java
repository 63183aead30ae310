package dev.kubeheadroom.cli;

import dev.kubeheadroom.kafka.embedded.EmbeddedKafka;
import dev.kubeheadroom.kafka.embedded.EmbeddedKafkaConfig;
import dev.kubeheadroom.kafka.embedded.EmbeddedKafkaException;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import picocli.CommandLine.Option;

/**
 * How a stage reaches Kafka: an existing cluster ({@code --kafka-bootstrap-servers} plus any
 * client property, for SASL/SSL), or, when none is given, an embedded single-node broker in this
 * process with its data under {@code --data-dir} (it survives restarts).
 */
public final class KafkaOptions {
  /** Environment variables with this prefix become client properties (chart: secrets as env). */
  static final String ENV_PROPERTY_PREFIX = "HEADROOM_KAFKA_";

  @Option(names = {"--kafka-bootstrap-servers", "--bootstrap-servers"}, paramLabel = "HOST:PORT,...",
      defaultValue = "${env:HEADROOM_KAFKA_BOOTSTRAP_SERVERS}",
      description = "Kafka bootstrap servers; when absent an embedded broker runs in this process. "
          + "Env: HEADROOM_KAFKA_BOOTSTRAP_SERVERS.")
  String bootstrapServers;

  @Option(names = "--kafka-client-properties", paramLabel = "FILE",
      defaultValue = "${env:HEADROOM_KAFKA_CLIENT_PROPERTIES}",
      description = "A Java properties file of Kafka client settings (security.protocol, sasl.*, ssl.*). "
          + "Env: HEADROOM_KAFKA_CLIENT_PROPERTIES.")
  Path clientPropertiesFile;

  @Option(names = "--kafka-property", paramLabel = "KEY=VALUE",
      description = "One Kafka client property (repeatable); wins over the file. Environment variables "
          + "HEADROOM_KAFKA_<PROPERTY> (upper case, '.' as '_', e.g. HEADROOM_KAFKA_SASL_JAAS_CONFIG) win over both.")
  Map<String, String> properties = new LinkedHashMap<>();

  @Option(names = "--data-dir", paramLabel = "DIR",
      defaultValue = "${env:HEADROOM_DATA_DIR:-${sys:user.home}/.headroom}",
      description = "Where the embedded broker and local state live (default: ~/.headroom). Env: HEADROOM_DATA_DIR.")
  Path dataDir;

  /** Where a running embedded broker leaves its address for other headroom commands. */
  static final String ADDRESS_FILE = "embedded-kafka.address";

  /**
   * Connects: to the given servers; else to the embedded broker another headroom process runs on
   * this data dir (so {@code explain} works beside {@code run}); else starts an embedded broker.
   */
  KafkaConnection connect(Map<String, String> environment) {
    Map<String, String> client = clientProperties(environment);
    if (bootstrapServers != null && !bootstrapServers.isBlank()) {
      return new KafkaConnection(bootstrapServers, client, null);
    }
    Path address = dataDir.resolve(ADDRESS_FILE);
    try {
      EmbeddedKafka broker = EmbeddedKafka.start(EmbeddedKafkaConfig.ephemeral(dataDir.resolve("kafka")));
      Files.createDirectories(dataDir);
      Files.writeString(address, broker.bootstrapServers());
      return new KafkaConnection(broker.bootstrapServers(), client, broker, address);
    } catch (EmbeddedKafkaException e) {
      if (Files.isReadable(address)) {
        try {
          return new KafkaConnection(Files.readString(address).strip(), client, null);
        } catch (IOException ignored) {
          // fall through to the broker's own message
        }
      }
      throw new UserError("embedded Kafka: " + e.getMessage());
    } catch (IOException e) {
      throw new UserError("--data-dir " + dataDir + ": " + e.getMessage());
    }
  }

  Map<String, String> clientProperties(Map<String, String> environment) {
    Map<String, String> merged = new LinkedHashMap<>();
    if (clientPropertiesFile != null) {
      Properties file = new Properties();
      try (Reader in = Files.newBufferedReader(clientPropertiesFile)) {
        file.load(in);
      } catch (IOException e) {
        throw new UserError("--kafka-client-properties " + clientPropertiesFile + ": cannot read ("
            + e.getMessage() + ")");
      }
      file.stringPropertyNames().stream().sorted().forEach(k -> merged.put(k, file.getProperty(k)));
    }
    merged.putAll(properties);
    environment.entrySet().stream()
        .filter(e -> e.getKey().startsWith(ENV_PROPERTY_PREFIX))
        .filter(e -> !e.getKey().equals("HEADROOM_KAFKA_BOOTSTRAP_SERVERS")
            && !e.getKey().equals("HEADROOM_KAFKA_CLIENT_PROPERTIES"))
        .sorted(Map.Entry.comparingByKey())
        .forEach(e -> merged.put(
            e.getKey().substring(ENV_PROPERTY_PREFIX.length()).toLowerCase(Locale.ROOT).replace('_', '.'),
            e.getValue()));
    return merged;
  }
}
