package dev.kubeheadroom.ingest;

import dev.kubeheadroom.schemas.DeadLetter;
import dev.kubeheadroom.schemas.JsonCodec;
import dev.kubeheadroom.schemas.NodeSync;
import dev.kubeheadroom.schemas.TopicBootstrap;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.RecordBatchTooLargeException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hands records to Kafka without ever blocking an informer thread and without losing one silently.
 *
 * <ul>
 *   <li>Idempotent producer, {@code acks=all}: Kafka's own retries cover short outages in order.
 *   <li>{@link #offer} queues in memory; one sender thread feeds the producer. The buffer bound
 *       counts queued <em>and</em> unacknowledged records, so it fills while Kafka is down even
 *       though the producer would accept more. It is bounded in records (the settings'
 *       {@code bufferCapacity}) and in bytes ({@link #DEFAULT_BUFFER_BYTES}): a long outage in a
 *       cluster of large pods ends in a re-publish, never in an out-of-memory kill.
 *   <li>A record that does not fit, or that Kafka does not acknowledge within the producer's
 *       {@code delivery.timeout.ms}, is counted and raises "needs resync": once the broker answers
 *       again, the sink asks its owner (the resync callback) for a full re-publish, which
 *       supersedes whatever was lost. Records that did fit are still delivered first, in order.
 *   <li>A record Kafka refuses as too large is not a lost record but a refused one: a re-publish
 *       would send it again and be refused again, forever. It is counted ({@code
 *       headroom_ingest_records_refused_total{reason="too-large"}}) and dead-lettered (its start,
 *       topic and key), and no resync follows. Publishers keep their records under {@link
 *       #recordBudget()} (a node sync is chunked), so this is a backstop.
 *   <li>Closed (not the leader): offers are ignored, nothing is published.
 * </ul>
 */
public final class KafkaSink implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(KafkaSink.class);
  private static final Duration HEALTHY_PROBE_INTERVAL = Duration.ofSeconds(10);
  /**
   * The bytes (keys, values and a per-record overhead) the buffer may hold: 200 000 pod records
   * of a few KB each would otherwise outgrow the stage's heap well before the record bound.
   */
  public static final long DEFAULT_BUFFER_BYTES = 64L << 20;
  /** What one queued record costs beyond its key and value (the queue entry, its references). */
  static final int RECORD_OVERHEAD_BYTES = 64;

  private record Out(String topic, String key, byte[] value) {}

  private final IngestSettings settings;
  private final IngestMetrics metrics;
  private final Producer<String, byte[]> producer;
  private final Admin admin;
  private final Consumer<String> resyncRequest;
  private final CompletableFuture<Void> failed = new CompletableFuture<>();
  private final Thread sender;

  private final ArrayDeque<Out> queue = new ArrayDeque<>();
  private int inFlight; // guarded by this
  private long bufferedBytes; // guarded by this: queued plus unacknowledged
  private final long bufferBytes;
  private boolean open; // guarded by this
  private boolean republishOwed; // guarded by this: opened, the leadership's re-publish not yet begun
  private volatile long epoch; // this leadership's, stamped on node-keyed records
  private boolean running = true; // guarded by this
  private String resyncReason; // guarded by this; non-null: a full re-publish is owed
  private volatile boolean reachable;
  private volatile boolean topicsReady;

  /**
   * @param resyncRequest called (from the sender thread; it must not block) when a full re-publish
   *     is owed and Kafka answers again; the argument is the reason
   * @param bufferBytes the most bytes queued and unacknowledged ({@link #DEFAULT_BUFFER_BYTES})
   */
  public KafkaSink(IngestSettings settings, IngestMetrics metrics, Consumer<String> resyncRequest,
      long bufferBytes) {
    this.bufferBytes = bufferBytes;
    this.settings = settings;
    this.metrics = metrics;
    this.resyncRequest = resyncRequest;
    this.producer = new KafkaProducer<>(producerConfig(settings), new StringSerializer(), new ByteArraySerializer());
    this.admin = Admin.create(new HashMap<>(clientConfig(settings)));
    this.topicsReady = settings.topicLayout() == null;
    metrics.bufferedGauge(this::buffered);
    sender = new Thread(this::run, "headroom-ingest-sender");
    sender.setDaemon(true);
    sender.start();
  }

  static Map<String, Object> clientConfig(IngestSettings settings) {
    Map<String, Object> config = new HashMap<>(settings.clientProperties());
    config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, settings.bootstrapServers());
    return config;
  }

  static Map<String, Object> producerConfig(IngestSettings settings) {
    Map<String, Object> config = clientConfig(settings);
    config.putIfAbsent(ProducerConfig.LINGER_MS_CONFIG, 5);
    config.putIfAbsent(ProducerConfig.MAX_BLOCK_MS_CONFIG, 5_000);
    config.putIfAbsent(ProducerConfig.CLIENT_ID_CONFIG, "headroom-ingest");
    // What the design requires, whatever the user passed.
    config.put(ProducerConfig.ACKS_CONFIG, "all");
    config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    config.put(ProducerConfig.RETRIES_CONFIG, Integer.MAX_VALUE);
    config.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 5);
    return config;
  }

  /**
   * Starts publishing (this instance leads, with {@code epoch}: see {@link LeaseEpoch}) with the
   * leadership's full re-publish: until it begins ({@link #republishBegins}), offers are refused
   * as a shut sink's are. The informers may still be delivering the initial list's events when a
   * new leader opens: worked then, a node's pods would go out partly ahead of the re-publish and
   * partly in it, in two runs (docs/design/pipeline.md, "Publish order"); the re-publish sends
   * what they carry. Offers made before are not replayed.
   */
  public synchronized void open(long epoch) {
    this.epoch = epoch;
    open = true;
    republishOwed = true;
    resyncReason = null; // a new leader re-publishes everything anyway
  }

  /** A full re-publish begins: every offer is taken again (see {@link #open}). */
  public synchronized void republishBegins() {
    republishOwed = false;
  }

  /** The epoch publishers stamp on node-keyed records (0 before this instance first led). */
  public long epoch() {
    return epoch;
  }

  /** Stops publishing: later offers are ignored. Queued records are still sent. */
  public synchronized void shut() {
    open = false;
  }

  /**
   * Queues one record ({@code value} null: a tombstone). Never blocks.
   *
   * @return false when the record was not queued: not leading (nothing to publish), the
   *     leadership's re-publish not yet begun, or the buffer is full (counted; a full re-publish
   *     follows once Kafka is back)
   */
  public synchronized boolean offer(String topic, String key, byte[] value) {
    if (!open || !running || republishOwed) {
      return false;
    }
    long size = size(key, value);
    // (an empty buffer takes any one record: the bound is on what accumulates)
    if (queue.size() + inFlight >= settings.bufferCapacity()
        || (bufferedBytes > 0 && bufferedBytes + size > bufferBytes)) {
      metrics.overflow();
      if (resyncReason == null) {
        LOG.warn("ingest buffer full ({} records, {} bytes): publishing will resume with a full re-publish once "
            + "Kafka catches up", queue.size() + inFlight, bufferedBytes);
        resyncReason = "overflow";
      }
      return false;
    }
    queue.addLast(new Out(topic, key, value));
    bufferedBytes += size;
    notifyAll();
    return true;
  }

  private static long size(String key, byte[] value) {
    return RECORD_OVERHEAD_BYTES + (key == null ? 0 : key.length() * 2L) + (value == null ? 0 : value.length);
  }

  /**
   * Waits until the buffer is at most half full, in records and in bytes, so a full re-publish
   * can go through it at the pace Kafka takes records. Returns at once when not leading or closed.
   */
  public synchronized void awaitRoom() throws InterruptedException {
    while (open && running && (queue.size() + inFlight > settings.bufferCapacity() * 0.5
        || bufferedBytes > bufferBytes * 0.5)) {
      wait(settings.kafkaRetryBackoff().toMillis());
    }
  }

  /** Whether the last look at Kafka found it answering (and the topics in place). */
  public boolean reachable() {
    return reachable && topicsReady;
  }

  /** Completes exceptionally if the topics cannot carry the pipeline (a configuration error). */
  public CompletableFuture<Void> failed() {
    return failed;
  }

  /** Queued plus unacknowledged records. */
  public synchronized int buffered() {
    return queue.size() + inFlight;
  }

  private void run() {
    long nextProbe = 0;
    while (true) {
      if (System.nanoTime() - nextProbe >= 0) {
        probe();
        nextProbe = System.nanoTime() + (reachable() && !resyncOwed()
            ? HEALTHY_PROBE_INTERVAL : settings.kafkaRetryBackoff()).toNanos();
      }
      Out next;
      synchronized (this) {
        if (!running) {
          return;
        }
        if (queue.isEmpty() || !topicsReady) {
          long waitMillis = Math.max(1, TimeUnit.NANOSECONDS.toMillis(nextProbe - System.nanoTime()));
          try {
            wait(waitMillis);
          } catch (InterruptedException e) {
            return;
          }
          continue;
        }
        next = queue.peekFirst();
      }
      try {
        Out sent = next;
        long size = size(next.key, next.value);
        producer.send(new ProducerRecord<>(next.topic, next.key, next.value),
            (metadata, error) -> completed(sent, size, error));
        synchronized (this) {
          queue.pollFirst();
          inFlight++;
        }
      } catch (KafkaException e) {
        if (!(e instanceof RetriableException || e.getCause() instanceof RetriableException
            || e instanceof org.apache.kafka.common.errors.TimeoutException)) {
          LOG.error("Kafka refused a record for {}: {}", next.topic, e.getMessage());
        }
        reachable = false;
        nextProbe = System.nanoTime() + settings.kafkaRetryBackoff().toNanos();
        synchronized (this) {
          try {
            wait(settings.kafkaRetryBackoff().toMillis());
          } catch (InterruptedException ie) {
            return;
          }
        }
      }
    }
  }

  private synchronized boolean resyncOwed() {
    return resyncReason != null;
  }

  private void completed(Out record, long size, Exception error) {
    synchronized (this) {
      inFlight--;
      bufferedBytes -= size;
      if (error instanceof RecordTooLargeException || error instanceof RecordBatchTooLargeException) {
        refusedAsTooLarge(record, error);
      } else if (error != null) {
        metrics.deliveryFailure();
        if (resyncReason == null) {
          resyncReason = "delivery-failure";
          LOG.warn("Kafka did not acknowledge a record ({}): a full re-publish follows once it answers",
              error.getMessage());
        }
      }
      notifyAll();
    }
    reachable = error == null || error instanceof RecordTooLargeException
        || error instanceof RecordBatchTooLargeException;
  }

  /** Counted and dead-lettered, never re-sent (see the class comment). Holds the lock. */
  private void refusedAsTooLarge(Out record, Exception error) {
    metrics.refused("too-large");
    LOG.error("Kafka refused a record for {} (key {}) as too large ({} bytes): dead-lettered, not re-sent: {}",
        record.topic, record.key, record.value == null ? 0 : record.value.length, error.getMessage());
    String deadLetters = settings.topics().deadLetter();
    if (record.topic.equals(deadLetters)) {
      return; // a dead letter about a dead letter could be refused in turn
    }
    DeadLetter letter = new DeadLetter(record.topic, -1, -1, record.key,
        error.getClass().getName() + ": " + error.getMessage(), DeadLetter.payloadOf(record.value, recordBudget() / 4),
        Instant.now(), DeadLetter.Kind.TOO_LARGE, "ingest");
    queue.addLast(new Out(deadLetters, record.key, JsonCodec.encode(letter)));
  }

  /**
   * The most bytes a publisher should put in one record: {@link NodeSync#DEFAULT_CHUNK_BYTES},
   * or three quarters of a smaller {@code max.request.size} (room for the batch and key).
   */
  public int recordBudget() {
    Object limit = settings.clientProperties().get(ProducerConfig.MAX_REQUEST_SIZE_CONFIG);
    if (limit == null) {
      return NodeSync.DEFAULT_CHUNK_BYTES;
    }
    int max = Integer.parseInt(limit.toString().trim());
    return Math.max(256, Math.min(NodeSync.DEFAULT_CHUNK_BYTES, max - max / 4));
  }

  /** Checks that Kafka answers, sets up topics once, and asks for an owed resync. */
  private void probe() {
    boolean ok;
    try {
      admin.describeCluster(new DescribeClusterOptions().timeoutMs(probeTimeoutMillis()))
          .clusterId().get(probeTimeoutMillis() + 1_000L, TimeUnit.MILLISECONDS);
      ok = true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return;
    } catch (Exception e) {
      ok = false;
    }
    if (ok && !topicsReady) {
      try {
        TopicBootstrap.ensure(admin, settings.topics(), settings.topicLayout(), Duration.ofSeconds(30));
        topicsReady = true;
        synchronized (this) {
          notifyAll();
        }
      } catch (TopicBootstrap.LayoutException e) {
        if (e.getMessage().contains("partition count")) {
          LOG.error("{}", e.getMessage());
          failed.completeExceptionally(e);
        }
        ok = false;
      }
    }
    if (ok != reachable) {
      LOG.info("Kafka {} at {}", ok ? "reachable" : "unreachable", settings.bootstrapServers());
    }
    reachable = ok;
    String reason = null;
    synchronized (this) {
      if (ok && open && resyncReason != null) {
        reason = resyncReason;
        resyncReason = null;
      }
    }
    if (reason != null) {
      resyncRequest.accept(reason);
    }
  }

  private int probeTimeoutMillis() {
    return (int) Math.max(1_000, Math.min(5_000, settings.kafkaRetryBackoff().toMillis() * 2));
  }

  /** Stops the sender, then lets the producer deliver what it holds for up to {@code timeout}. */
  public void close(Duration timeout) {
    synchronized (this) {
      if (!running) {
        return;
      }
      running = false;
      open = false;
      notifyAll();
    }
    try {
      sender.join(timeout.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    producer.close(timeout);
    admin.close(Duration.ofSeconds(1));
  }

  @Override
  public void close() {
    close(Duration.ofSeconds(5));
  }
}
