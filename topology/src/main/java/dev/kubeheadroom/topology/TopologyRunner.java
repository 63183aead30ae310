package dev.kubeheadroom.topology;

import dev.kubeheadroom.schemas.KafkaClientSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Owns the Kafka Streams lifecycle for {@link HeadroomTopology}: configuration (exactly-once v2,
 * named internal resources), the uncaught-exception policy, readiness and shutdown. Topics must
 * exist (see {@code TopicBootstrap}) before it starts.
 */
public final class TopologyRunner implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(TopologyRunner.class);

  /**
   * @param applicationId the Streams application id (consumer group, internal topic prefix)
   * @param kafka Kafka's address and further client properties (SASL/SSL, tuning); they win
   * @param stateDir where RocksDB state lives
   * @param standbyReplicas {@code num.standby.replicas}: warm copies of each task's state
   * @param groupInstanceId static membership's {@code group.instance.id} (a stable pod name, as a
   *     StatefulSet gives), or empty for dynamic membership
   * @param failover how fast a lost instance's partitions move ({@link FailoverTimeouts})
   * @param applicationServer Streams' {@code application.server}: the {@code host:port} where this
   *     instance serves its bookings (the chart: the pod IP and the metrics port), so the others
   *     can forward a query for a node it owns; empty advertises nothing
   */
  public record Options(String applicationId, KafkaClientSettings kafka, Path stateDir, int standbyReplicas,
      String groupInstanceId, FailoverTimeouts failover, String applicationServer) {
    public static final String DEFAULT_APPLICATION_ID = "headroom-topology";

    public Options {
      Objects.requireNonNull(applicationId, "applicationId");
      Objects.requireNonNull(kafka, "kafka");
      Objects.requireNonNull(stateDir, "stateDir");
      Objects.requireNonNull(groupInstanceId, "groupInstanceId");
      Objects.requireNonNull(failover, "failover");
      if (standbyReplicas < 0) {
        throw new IllegalArgumentException("standbyReplicas must be >= 0: " + standbyReplicas);
      }
      applicationServer = applicationServer == null ? "" : applicationServer.strip();
      if (!applicationServer.isEmpty() && !applicationServer.matches(".*[^:]:[0-9]{1,5}")) {
        throw new IllegalArgumentException("--application-server " + applicationServer + ": expected HOST:PORT");
      }
    }

    public Options(String applicationId, KafkaClientSettings kafka, Path stateDir, int standbyReplicas,
        String groupInstanceId, FailoverTimeouts failover) {
      this(applicationId, kafka, stateDir, standbyReplicas, groupInstanceId, failover, "");
    }

    /** {@link FailoverTimeouts#DEFAULTS}. */
    public Options(String applicationId, KafkaClientSettings kafka, Path stateDir, int standbyReplicas,
        String groupInstanceId) {
      this(applicationId, kafka, stateDir, standbyReplicas, groupInstanceId, FailoverTimeouts.DEFAULTS);
    }

    /** No standby replicas, dynamic membership (Streams' defaults). */
    public Options(String applicationId, KafkaClientSettings kafka, Path stateDir) {
      this(applicationId, kafka, stateDir, 0, "");
    }
  }

  /**
   * How long the topology may make no progress while Kafka answers before it reports itself
   * failed ({@link TopologyStalled}; docs/reliability.md, finding 7). Longer than anything a
   * healthy topology waits out while Kafka answers: a commit blocked for {@code max.block.ms}
   * (60 s), a killed member's session timeout (45 s) before a rebalance completes. Restores and
   * Kafka outages do not count against it.
   */
  public static final Duration DEFAULT_STALL_BOUND = Duration.ofMinutes(2);

  private final KafkaStreams streams;
  private final ProgressProbe probe;
  private final CountDownLatch stopped = new CountDownLatch(1);
  private volatile Throwable failure;

  private TopologyRunner(KafkaStreams streams, ProgressProbe probe) {
    this.streams = streams;
    this.probe = probe;
  }

  public static TopologyRunner start(Options options, TopologySettings settings, TopologyListener listener) {
    return start(options, settings, listener, DEFAULT_STALL_BOUND);
  }

  /** As above; the topology reports itself failed after {@code stallBound} without progress while Kafka answers. */
  public static TopologyRunner start(Options options, TopologySettings settings, TopologyListener listener,
      Duration stallBound) {
    return start(options, settings, listener, stallBound, UnaryOperator.identity());
  }

  /** As above, each stream thread's producer wrapped by {@code producers} (a test's fault injection). */
  static TopologyRunner start(Options options, TopologySettings settings, TopologyListener listener,
      Duration stallBound, UnaryOperator<Producer<byte[], byte[]>> producers) {
    Properties properties = properties(options, settings, listener);
    int budget = recordBudget(properties, settings.maxRecordBytes());
    TopologySettings fitted = settings.with(b -> b.maxRecordBytes = budget);
    KafkaStreams streams = new KafkaStreams(HeadroomTopology.build(fitted, listener), properties,
        new StreamsClients(producers));
    Admin admin = Admin.create(adminProperties(options));
    String prefix = settings.topics().prefix();
    ProgressProbe probe = new ProgressProbe(streams, admin, stallBound, new HangingTransactions(admin,
        options.applicationId(), topic -> topic.startsWith(prefix),
        options.failover().transactionTimeout().multipliedBy(2), Duration.ofSeconds(5)));
    streams.setGlobalStateRestoreListener(probe.restoreListener());
    TopologyRunner runner = new TopologyRunner(streams, probe);
    streams.setUncaughtExceptionHandler(e -> {
      if (KafkaUnavailable.causedBy(e)) {
        // Kafka unreachable for longer than task.timeout.ms: not a bug, and exiting makes it
        // worse (DESIGN.md, "Kafka outages"). A fresh thread retries until Kafka is back.
        LOG.warn("Kafka unavailable past {}; replacing the stream thread: {}",
            StreamsConfig.TASK_TIMEOUT_MS_CONFIG, e.toString());
        return StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.REPLACE_THREAD;
      }
      // Losing a stream thread to a bug must be loud: stop, and let the process exit non-zero
      // (a supervisor restarts it; state restores from the changelogs).
      LOG.error("Topology failed; shutting down", e);
      runner.failure = e;
      return StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
    });
    streams.setStateListener((now, before) -> {
      LOG.info("Topology {} -> {}", before, now);
      if (now == KafkaStreams.State.RUNNING) {
        probe.running();
      }
      if (now == KafkaStreams.State.NOT_RUNNING || now == KafkaStreams.State.ERROR) {
        runner.stopped.countDown();
      }
    });
    streams.start();
    probe.start();
    return runner;
  }

  /** The watchdog's admin client: Kafka's address and those client properties an admin client takes (security). */
  static Properties adminProperties(Options options) {
    Properties p = new Properties();
    options.kafka().properties().forEach((k, v) -> {
      if (AdminClientConfig.configNames().contains(k)) {
        p.put(k, v);
      }
    });
    p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, options.kafka().bootstrapServers());
    p.put(AdminClientConfig.CLIENT_ID_CONFIG, options.applicationId() + "-watchdog");
    return p;
  }

  /**
   * The Streams config, the only one: the live runner and every harness that runs the built
   * topology (replay's {@code TopologyTestDriver} yardstick, the topology tests) use it, so a test
   * runs what production runs and handles errors alike: a record a processor throws on, one the
   * sources cannot deserialize, and an output Kafka refuses are dead-lettered to
   * {@code topics.deadLetter()} with the reason, counted through {@code listener}, and processing
   * goes on (DESIGN.md, "No record stops the topology"). {@code options} say where.
   */
  public static Properties properties(Options options, TopologySettings settings, TopologyListener listener) {
    Properties p = new Properties();
    p.put(StreamsConfig.APPLICATION_ID_CONFIG, options.applicationId());
    p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, options.kafka().bootstrapServers());
    p.put(StreamsConfig.STATE_DIR_CONFIG, options.stateDir().toString());
    p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
    p.put(StreamsConfig.ENSURE_EXPLICIT_INTERNAL_RESOURCE_NAMING_CONFIG, true);
    p.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 16L * 1024 * 1024);
    p.put(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_CLASS_CONFIG, DeadLetterProcessingHandler.class);
    p.put(StreamsConfig.DESERIALIZATION_EXCEPTION_HANDLER_CLASS_CONFIG, DeadLetterDeserializationHandler.class);
    p.put(StreamsConfig.PRODUCTION_EXCEPTION_HANDLER_CLASS_CONFIG, DeadLetterProductionHandler.class);
    p.put(StreamsConfig.ERRORS_DEAD_LETTER_QUEUE_TOPIC_NAME_CONFIG, settings.topics().deadLetter());
    p.put(DeadLetters.LISTENER_CONFIG, listener);
    // Global tables (namespaces, config) too: their processor skips and counts what it cannot
    // read; anything else it throws on is counted and skipped rather than stopping the app.
    p.put(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_GLOBAL_ENABLED_CONFIG, true);
    // A node's pods, nodes and outcomes partitions are read as they come, not held back in
    // timestamp order while one of them is empty (the outcomes partition nearly always is). The
    // order across those topics carries little: each event sets its own part of the booking, and
    // outcomes and snapshots come from different writers with different clocks anyway; the one
    // race that matters (a node deleted and re-created under its name while its pods arrive) is
    // healed by the next node sync. Kafka Streams' idle check, meanwhile, formats a log line per
    // empty partition per record whether or not it is logged: ~15% of the stream thread.
    p.put(StreamsConfig.MAX_TASK_IDLE_MS_CONFIG, StreamsConfig.MAX_TASK_IDLE_MS_DISABLED);
    p.put(StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG, options.standbyReplicas());
    if (!options.applicationServer().isEmpty()) {
      p.put(StreamsConfig.APPLICATION_SERVER_CONFIG, options.applicationServer());
    }
    options.failover().putInto(p, options.kafka().properties());
    if (!options.groupInstanceId().isBlank()) {
      // Main consumer only (the one in the group); Streams suffixes it with each thread's index.
      p.put(StreamsConfig.mainConsumerPrefix(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG), options.groupInstanceId());
    }
    p.putAll(options.kafka().properties());
    return p;
  }

  /**
   * The decision budget that fits the producer: the settings' unless the client properties set a
   * smaller {@code max.request.size}, then a quarter of that below it (the record batch, key
   * and headers take some; a decision over it would poison the exactly-once transaction).
   */
  static int recordBudget(Properties properties, int configured) {
    Object limit = properties.get(StreamsConfig.producerPrefix(ProducerConfig.MAX_REQUEST_SIZE_CONFIG));
    if (limit == null) {
      limit = properties.get(ProducerConfig.MAX_REQUEST_SIZE_CONFIG);
    }
    if (limit == null) {
      return configured;
    }
    int max = Integer.parseInt(limit.toString().trim());
    return Math.max(1024, Math.min(configured, max - max / 4));
  }

  /** The Streams client, for binding its metrics. */
  public KafkaStreams streams() {
    return streams;
  }

  /**
   * The failure that stopped the topology, if one did, or the stall that needs a new client
   * ({@link TopologyStalled}): the stage exits non-zero, or is restarted in process.
   */
  public java.util.Optional<Throwable> failure() {
    return failure != null ? java.util.Optional.of(failure) : probe.stalled().map(Throwable.class::cast);
  }

  public boolean isRunning() {
    return streams.state() == KafkaStreams.State.RUNNING;
  }

  public KafkaStreams.State state() {
    return streams.state();
  }

  /** Waits until the topology runs (state restored, partitions assigned). */
  public boolean awaitRunning(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!isRunning()) {
      if (System.nanoTime() > deadline || stopped.getCount() == 0) {
        return false;
      }
      Thread.sleep(20); // Streams has no awaitable state transition
    }
    return true;
  }

  /** Blocks until the topology stops; returns the failure that stopped it, if any. */
  public Throwable awaitStop() throws InterruptedException {
    stopped.await();
    return failure;
  }

  public boolean awaitStop(Duration timeout) throws InterruptedException {
    return stopped.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** The pod-entry store of this instance, for {@code explain} (interactive queries). */
  public <V> ReadOnlyKeyValueStore<String, V> store(String name) {
    return streams.store(StoreQueryParameters.fromNameAndType(name, QueryableStoreTypes.keyValueStore()));
  }

  @Override
  public void close() {
    probe.close();
    // Leave the group on close: a restarted instance should not wait out the old member's
    // session timeout (45 s by default) before it gets its partitions back.
    streams.close(new KafkaStreams.CloseOptions().leaveGroup(true).timeout(Duration.ofSeconds(30)));
    stopped.countDown();
  }
}
