package dev.kubeheadroom.cli;

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
 * client property, for SASL/SSL), or, when none is given, the {@link LocalKafka} of the command
 * line: in {@code ./headroom}, an embedded single-node broker in this process with its data under
 * {@code --data-dir} (it survives restarts); in the operator image, none.
 */
public final class KafkaOptions {
  private final LocalKafka local;

  KafkaOptions(LocalKafka local) {
    this.local = local;
  }

  /** What picocli builds outside {@link Main#commandLine}: no local broker. */
  KafkaOptions() {
    this(LocalKafka.NONE);
  }

  /** Environment variables with this prefix become client properties (chart: secrets as env). */
  static final String ENV_PROPERTY_PREFIX = "HEADROOM_KAFKA_";

  @Option(names = {"--kafka-bootstrap-servers", "--bootstrap-servers"}, paramLabel = "HOST:PORT,...",
      defaultValue = "${env:HEADROOM_KAFKA_BOOTSTRAP_SERVERS}",
      description = "Kafka bootstrap servers; when absent ./headroom runs an embedded broker in this process "
          + "(the operator image has none). Env: HEADROOM_KAFKA_BOOTSTRAP_SERVERS.")
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
      description = "Where ./headroom's embedded broker keeps its data (default: ~/.headroom). Env: HEADROOM_DATA_DIR.")
  Path dataDir;

  /** Connects to the given servers, else to the command line's {@link LocalKafka}. */
  KafkaConnection connect(Map<String, String> environment) {
    Map<String, String> client = clientProperties(environment);
    if (bootstrapServers != null && !bootstrapServers.isBlank()) {
      return new KafkaConnection(bootstrapServers, client, null);
    }
    LocalKafka.Broker broker = local.open(dataDir);
    return new KafkaConnection(broker.bootstrapServers(), client, broker.startedHere());
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
