package dev.kubeheadroom.topology;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.processor.StateRestoreListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Feeds a {@link StallWatchdog} from a running Kafka Streams client, every {@code every}: work done
 * (the stream threads' {@code process-total} and {@code punctuate-total} moved: the topology
 * punctuates every tick while its tasks run), restore batches (a long restore is progress), an
 * instance running with no active task (idle by assignment, e.g. more replicas than partitions),
 * and whether Kafka answers at all ({@code describeCluster}, asked only once the topology has been
 * idle for a while).
 */
final class ProgressProbe implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ProgressProbe.class);
  private static final String THREAD_METRICS = "stream-thread-metrics";
  private static final Set<String> WORK = Set.of("process-total", "punctuate-total");

  private final KafkaStreams streams;
  private final Admin admin;
  private final Duration bound;
  private final Duration every;
  private final StallWatchdog watchdog;
  private final HangingTransactions hanging;
  private long nextHangCheck;
  /** When the client last left RUNNING (System.nanoTime), or 0 while it runs. */
  private long notRunningSince;
  private final ScheduledExecutorService timer;
  private double work = -1;
  private volatile TopologyStalled stalled;

  /**
   * How long the topology makes no progress, or is kept from RUNNING, while Kafka answers before
   * its hanging transactions are looked for, and how often again: a hanging transaction stops it
   * for good, so this comes well before the stall bound (whose restart cannot help).
   */
  static final Duration HANG_CHECK = Duration.ofSeconds(5);

  ProgressProbe(KafkaStreams streams, Admin admin, Duration bound, HangingTransactions hanging) {
    this.streams = streams;
    this.admin = admin;
    this.hanging = hanging;
    this.bound = bound;
    this.every = bound.dividedBy(4).compareTo(Duration.ofSeconds(5)) > 0 ? Duration.ofSeconds(5)
        : bound.dividedBy(4);
    this.watchdog = new StallWatchdog(bound, System::nanoTime);
    this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "headroom-topology-watchdog");
      t.setDaemon(true);
      return t;
    });
  }

  void start() {
    timer.scheduleWithFixedDelay(this::checkQuietly, every.toMillis(), every.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** Told of restore batches: a long restore is progress. */
  StateRestoreListener restoreListener() {
    return new StateRestoreListener() {
      @Override
      public void onRestoreStart(TopicPartition partition, String store, long start, long end) {
        watchdog.progressed();
      }

      @Override
      public void onBatchRestored(TopicPartition partition, String store, long batchEnd, long restored) {
        watchdog.progressed();
      }

      @Override
      public void onRestoreEnd(TopicPartition partition, String store, long total) {
        watchdog.progressed();
      }
    };
  }

  /** The client reached RUNNING. */
  void running() {
    watchdog.progressed();
  }

  /** The stall, once the watchdog has seen one (it stays: a new client is needed). */
  Optional<TopologyStalled> stalled() {
    return Optional.ofNullable(stalled);
  }

  private void checkQuietly() {
    try {
      check();
    } catch (RuntimeException e) {
      LOG.warn("Topology watchdog check failed: {}", e.toString()); // the next check tries again
    }
  }

  void check() {
    if (stalled != null) {
      return;
    }
    long nowNanos = System.nanoTime();
    boolean running = streams.state() == KafkaStreams.State.RUNNING;
    notRunningSince = running ? 0 : notRunningSince != 0 ? notRunningSince : nowNanos;
    double now = work();
    boolean answers = true;
    boolean asked = false;
    if (now != work) {
      work = now;
      watchdog.progressed();
    } else if (running && noActiveTask()) {
      watchdog.progressed();
    } else if (watchdog.sinceProgress().compareTo(every) > 0) {
      answers = kafkaAnswers();
      asked = true;
      if (!answers) {
        watchdog.kafkaAway();
      }
    }
    // A hanging transaction can stop some tasks while the others go on (the fault suite's
    // all-in-one run: a task's committed offsets unreadable for minutes, the client
    // REBALANCING, its other work still counted): a client kept from RUNNING is looked at too.
    boolean stopped = watchdog.sinceProgress().compareTo(HANG_CHECK) > 0
        || notRunningSince != 0 && nowNanos - notRunningSince > HANG_CHECK.toNanos();
    if (answers && stopped && nowNanos - nextHangCheck >= 0 && (asked || kafkaAnswers())) {
      nextHangCheck = nowNanos + HANG_CHECK.toNanos();
      if (hanging.abortOwn() > 0) {
        watchdog.progressed(); // the reads that stopped at them go on: give them the bound again
      }
    }
    watchdog.stalled().ifPresent(idle -> {
      stalled = new TopologyStalled(idle, bound, streams.state().toString());
      LOG.error("Topology stalled: {}", stalled.getMessage());
    });
  }

  private double work() {
    double sum = 0;
    for (Map.Entry<MetricName, ? extends Metric> m : streams.metrics().entrySet()) {
      // the stream threads' work only: the global thread reads the config and namespaces on,
      // whatever the tasks do, and would hide their stall
      if (THREAD_METRICS.equals(m.getKey().group()) && WORK.contains(m.getKey().name())
          && !m.getKey().tags().getOrDefault("thread-id", "").contains("GlobalStreamThread")
          && m.getValue().metricValue() instanceof Number n) {
        sum += n.doubleValue();
      }
    }
    return sum;
  }

  private boolean noActiveTask() {
    try {
      return streams.metadataForLocalThreads().stream().allMatch(t -> t.activeTasks().isEmpty());
    } catch (IllegalStateException e) {
      return false; // not running after all
    }
  }

  private boolean kafkaAnswers() {
    int timeout = (int) Math.min(every.toMillis(), 5_000);
    try {
      admin.describeCluster(new DescribeClusterOptions().timeoutMs(timeout)).clusterId()
          .get(timeout + 1_000L, TimeUnit.MILLISECONDS);
      return true;
    } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return true; // closing: hold nothing against it, nor for it
    }
  }

  @Override
  public void close() {
    timer.shutdownNow();
    admin.close(Duration.ofSeconds(5));
  }
}
