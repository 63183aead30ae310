package dev.kubeheadroom.kafka.embedded;

import dev.kubeheadroom.schemas.TopicReadiness;
import java.net.BindException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicBoolean;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A single-node Kafka broker running inside this JVM: KRaft, combined broker and controller,
 * listening on 127.0.0.1 only, with every internal topic at replication factor 1.
 *
 * <p>{@link #start} formats the data directory on first use and reuses it afterwards (same cluster
 * id, same records). It holds an exclusive lock on the directory until {@link #close}, so a second
 * broker on the same directory fails at once with a clear message instead of corrupting it. It
 * returns once the broker is ready for clients. Topics are never auto-created: create them with
 * {@link #createTopics}, which also waits until they can take writes.
 *
 * <pre>{@code
 * try (EmbeddedKafka kafka = EmbeddedKafka.start(dataDir)) {
 *   kafka.createTopics(Map.of("headroom.pods", 6), Map.of());
 *   producerProps.put("bootstrap.servers", kafka.bootstrapServers());
 * }
 * }</pre>
 */
public final class EmbeddedKafka implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(EmbeddedKafka.class);

  /** Internal topics are sized for one small node, not Kafka's default of 50 partitions. */
  static final int INTERNAL_TOPIC_PARTITIONS = 5;

  private static final String LOG_DIR = "kraft-logs";
  private static final String TLS_DIR = "tls";
  private static final int NODE_ID = 1;
  private static final int PORT_ATTEMPTS = 3;

  /**
   * Kafka's server-side logger prefixes. Client loggers ({@code org.apache.kafka.clients}, {@code
   * org.apache.kafka.streams}) are left to the application.
   */
  public static final List<String> BROKER_LOGGERS =
      List.of(
          "kafka",
          "state.change.logger",
          "org.apache.kafka.common",
          "org.apache.kafka.controller",
          "org.apache.kafka.coordinator",
          "org.apache.kafka.image",
          "org.apache.kafka.metadata",
          "org.apache.kafka.network",
          "org.apache.kafka.queue",
          "org.apache.kafka.raft",
          "org.apache.kafka.security",
          "org.apache.kafka.server",
          "org.apache.kafka.snapshot",
          "org.apache.kafka.storage");

  private final EmbeddedKafkaConfig config;
  private final String clusterId;
  private final boolean formatted;
  private final int port;
  private final KafkaRaftServer server;
  private final DataDirLock lock;
  private final Duration startupTime;
  private final BrokerTls tls;
  private final AtomicBoolean closed = new AtomicBoolean();

  private EmbeddedKafka(
      EmbeddedKafkaConfig config,
      String clusterId,
      boolean formatted,
      int port,
      KafkaRaftServer server,
      DataDirLock lock,
      Duration startupTime,
      BrokerTls tls) {
    this.config = config;
    this.clusterId = clusterId;
    this.formatted = formatted;
    this.port = port;
    this.server = server;
    this.lock = lock;
    this.startupTime = startupTime;
    this.tls = tls;
  }

  /** Starts a broker on a free port, keeping its state in {@code dataDir}. */
  public static EmbeddedKafka start(Path dataDir) {
    return start(EmbeddedKafkaConfig.ephemeral(dataDir));
  }

  /**
   * Starts a broker and returns once it accepts clients.
   *
   * @throws EmbeddedKafkaException if the data directory is unusable or locked by another broker,
   *     the port is taken, or Kafka fails to start
   */
  public static EmbeddedKafka start(EmbeddedKafkaConfig config) {
    long begin = System.nanoTime();
    if (config.quietLogs()) {
      quietLogs();
    }
    Path dataDir = config.dataDir().toAbsolutePath().normalize();
    DataDirLock lock = DataDirLock.acquire(dataDir);
    try {
      Path logDir = dataDir.resolve(LOG_DIR);
      String existing = KraftStorage.clusterId(logDir);
      boolean format = existing == null;
      String clusterId = format ? Uuid.randomUuid().toString() : existing;
      BrokerTls tls = config.sasl() == null ? null : BrokerTls.generate(dataDir.resolve(TLS_DIR));
      for (int attempt = 1; ; attempt++) {
        BrokerPorts ports = BrokerPorts.choose(config.port());
        Properties props = brokerProperties(logDir, ports.broker(), ports.controller());
        if (config.sasl() != null) {
          config.sasl().secure(props, ports.broker(), ports.controller(), tls);
        }
        config.brokerOverrides().forEach(props::setProperty);
        KafkaConfig kafkaConfig;
        try {
          kafkaConfig = KafkaConfig.fromProps(props, false);
        } catch (ConfigException e) {
          throw new EmbeddedKafkaException("invalid broker configuration: " + e.getMessage(), e);
        }
        if (format) {
          KraftStorage.format(dataDir, clusterId, props,
              config.sasl() == null ? List.of() : config.sasl().formatArguments());
          format = false;
        }
        KafkaRaftServer server;
        try {
          server = new KafkaRaftServer(kafkaConfig, Time.SYSTEM);
        } catch (RuntimeException e) {
          throw new EmbeddedKafkaException(
              "Kafka cannot use its data in " + logDir + ": " + e.getMessage(), e);
        }
        try {
          server.startup();
        } catch (RuntimeException e) {
          stopQuietly(server);
          if (config.port() == EmbeddedKafkaConfig.EPHEMERAL_PORT
              && causedBy(e, BindException.class)
              && attempt < PORT_ATTEMPTS) {
            LOG.warn("Port {} or {} was taken before Kafka bound it; retrying with new ports",
                ports.broker(), ports.controller());
            continue;
          }
          throw new EmbeddedKafkaException(
              "Kafka failed to start in " + dataDir + " on 127.0.0.1:" + ports.broker()
                  + ": " + e.getMessage(), e);
        }
        Duration took = Duration.ofNanos(System.nanoTime() - begin);
        LOG.info("Embedded Kafka ready on 127.0.0.1:{} (cluster {}, {} {}) in {} ms",
            ports.broker(), clusterId, existing == null ? "formatted" : "reused", dataDir,
            took.toMillis());
        return new EmbeddedKafka(
            config, clusterId, existing == null, ports.broker(), server, lock, took, tls);
      }
    } catch (RuntimeException e) {
      lock.release();
      throw e;
    }
  }

  /** {@code 127.0.0.1:<port>}, for {@code bootstrap.servers}. */
  public String bootstrapServers() {
    return "127.0.0.1:" + port;
  }

  public int port() {
    return port;
  }

  /** The KRaft cluster id; unchanged across restarts on the same data directory. */
  public String clusterId() {
    return clusterId;
  }

  /** True if this start formatted a fresh data directory, false if it reused one. */
  public boolean freshlyFormatted() {
    return formatted;
  }

  public Path dataDir() {
    return config.dataDir();
  }

  /** Wall time {@link #start} took, from the call to the broker being ready. */
  public Duration startupTime() {
    return startupTime;
  }

  /** An admin client for this broker (on a secured one, logged in as the super user); the caller closes it. */
  public Admin admin() {
    Map<String, Object> admin = new HashMap<>();
    if (config.sasl() != null) {
      admin.putAll(clientProperties(config.sasl().superUser()));
    }
    admin.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
    return Admin.create(admin);
  }

  /**
   * The client properties (besides {@code bootstrap.servers}) that log in as {@code user} on a
   * secured broker (SASL_SSL, SCRAM-SHA-512, a trust store file holding the broker's certificate);
   * empty on a plaintext one.
   */
  public Map<String, String> clientProperties(String user) {
    if (config.sasl() == null) {
      return Map.of();
    }
    Map<String, String> client = new HashMap<>(config.sasl().clientLogin(user));
    client.putAll(tls.clientProperties());
    return Map.copyOf(client);
  }

  /**
   * Creates the topics that do not exist yet, all with the same configs, and waits (up to {@link
   * TopicReadiness#DEFAULT_TIMEOUT}) until every partition has a leader that serves it, so producing right
   * after this returns loses nothing. Existing topics are left as they are.
   */
  public void createTopics(Map<String, Integer> partitionsByName, Map<String, String> topicConfigs) {
    TopicReadiness.createAndAwaitLeaders(this::admin, partitionsByName, topicConfigs);
  }

  /** Shuts the broker down, waits for it, and releases the data directory. Idempotent. */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    try {
      server.shutdown();
      server.awaitShutdown();
    } finally {
      lock.release();
    }
  }

  /**
   * Sets Kafka's server-side loggers to WARN for slf4j-simple ({@code
   * org.slf4j.simpleLogger.log.<prefix>=warn}), leaving alone any prefix the user already
   * configured. INFO logging roughly doubles the broker's start-up time and says nothing an
   * operator needs. slf4j-simple fixes a logger's level when the logger is created, so call this
   * early in {@code main} if Kafka classes may log before {@link #start} (which calls it itself).
   * Has no effect with another slf4j backend: configure {@link #BROKER_LOGGERS} there instead.
   */
  public static void quietLogs() {
    for (String logger : BROKER_LOGGERS) {
      String key = "org.slf4j.simpleLogger.log." + logger;
      if (System.getProperty(key) == null) {
        System.setProperty(key, "warn");
      }
    }
  }

  /** The broker configuration {@link #start} uses, before user overrides (and a cluster node's base). */
  public static Properties brokerProperties(Path logDir, int brokerPort, int controllerPort) {
    Properties p = new Properties();
    // Combined mode, one voter, loopback only.
    p.setProperty("process.roles", "broker,controller");
    p.setProperty("node.id", Integer.toString(NODE_ID));
    p.setProperty("controller.quorum.voters", NODE_ID + "@127.0.0.1:" + controllerPort);
    p.setProperty(
        "listeners",
        "PLAINTEXT://127.0.0.1:" + brokerPort + ",CONTROLLER://127.0.0.1:" + controllerPort);
    p.setProperty("advertised.listeners", "PLAINTEXT://127.0.0.1:" + brokerPort);
    p.setProperty("controller.listener.names", "CONTROLLER");
    p.setProperty("inter.broker.listener.name", "PLAINTEXT");
    p.setProperty("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
    p.setProperty("log.dirs", logDir.toString());
    // One node: every internal topic at replication factor / min ISR 1. Without the transaction
    // ones, exactly_once_v2 hangs in REBALANCING forever.
    String partitions = Integer.toString(INTERNAL_TOPIC_PARTITIONS);
    p.setProperty("offsets.topic.replication.factor", "1");
    p.setProperty("offsets.topic.num.partitions", partitions);
    p.setProperty("transaction.state.log.replication.factor", "1");
    p.setProperty("transaction.state.log.min.isr", "1");
    p.setProperty("transaction.state.log.num.partitions", partitions);
    p.setProperty("share.coordinator.state.topic.replication.factor", "1");
    p.setProperty("share.coordinator.state.topic.min.isr", "1");
    p.setProperty("share.coordinator.state.topic.num.partitions", partitions);
    p.setProperty("default.replication.factor", "1");
    p.setProperty("min.insync.replicas", "1");
    // Consumers and Streams should not wait 3 s for a rebalance nobody else will join.
    p.setProperty("group.initial.rebalance.delay.ms", "0");
    // The default dedupe buffer is 128 MB of heap for a handful of compacted topics.
    p.setProperty("log.cleaner.dedupe.buffer.size", "2097152");
    // Topics are created explicitly (Topics / Streams' own admin); a typo must not make one.
    p.setProperty("auto.create.topics.enable", "false");
    return p;
  }

  private static void stopQuietly(KafkaRaftServer server) {
    try {
      server.shutdown();
      server.awaitShutdown();
    } catch (RuntimeException e) {
      LOG.warn("Kafka did not shut down cleanly after a failed start: {}", e.toString());
    }
  }

  private static boolean causedBy(Throwable e, Class<? extends Throwable> type) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (type.isInstance(t)) {
        return true;
      }
    }
    return false;
  }
}
