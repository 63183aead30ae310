package dev.kubeheadroom.topology;

import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.streams.StreamsConfig;

/**
 * The two Kafka timeouts that decide how long a killed topology instance's partitions go without
 * decisions (docs/running-beside-kafka.md, "What failover costs").
 *
 * @param sessionTimeout the group consumer's {@code session.timeout.ms}: how long the group waits
 *     for a member that stopped heartbeating before it moves its partitions. The broker refuses a
 *     member whose timeout is outside {@code group.min.session.timeout.ms} (6 s by default) and
 *     {@code group.max.session.timeout.ms}; the heartbeat is a third of it, as Kafka's defaults.
 * @param transactionTimeout the producers' {@code transaction.timeout.ms}: a killed instance's
 *     open transaction is aborted by the coordinator only after it, found by the broker's sweep
 *     every {@code transaction.abort.timed.out.transaction.cleanup.interval.ms} (10 s by
 *     default); until then every read_committed reader of a partition it wrote to (the actuator
 *     on the decisions, a restore of a changelog) stops at that transaction. Kafka Streams refuses
 *     one below {@code commit.interval.ms} (100 ms under exactly-once), the broker one above
 *     {@code transaction.max.timeout.ms} (15 min); a live transaction that outlasts it (a stream
 *     thread stalled that long) is fenced, and its tasks rejoin the group and restore.
 */
public record FailoverTimeouts(Duration sessionTimeout, Duration transactionTimeout) {
  /** Streams' {@code commit.interval.ms} under exactly-once: the floor it puts on the transaction timeout. */
  static final Duration EOS_COMMIT_INTERVAL = Duration.ofMillis(100);
  /**
   * 10 s, not the consumer's 45 s (which alone puts any crash failover past 45 s): Kafka's own
   * default before 3.0, well above the brokers' 6 s floor, so no broker refuses it, and long
   * enough that only a process stalled whole (its heartbeat thread too) for 10 s is thought dead.
   */
  public static final Duration DEFAULT_SESSION_TIMEOUT = Duration.ofSeconds(10);
  /**
   * 5 s, not Streams' 10 s: a killed instance's transaction then ends within the session timeout
   * plus the brokers' sweep, and 50 commit intervals still separate it from a live transaction's
   * fencing (a stream thread stalled 5 s between two commits).
   */
  public static final Duration DEFAULT_TRANSACTION_TIMEOUT = Duration.ofSeconds(5);
  public static final FailoverTimeouts DEFAULTS =
      new FailoverTimeouts(DEFAULT_SESSION_TIMEOUT, DEFAULT_TRANSACTION_TIMEOUT);

  public FailoverTimeouts {
    Objects.requireNonNull(sessionTimeout, "sessionTimeout");
    Objects.requireNonNull(transactionTimeout, "transactionTimeout");
    if (sessionTimeout.toMillis() < 3) {
      throw new IllegalArgumentException("sessionTimeout must be at least 3 ms (a heartbeat is a third of it): "
          + sessionTimeout);
    }
    if (transactionTimeout.compareTo(EOS_COMMIT_INTERVAL) < 0) {
      throw new IllegalArgumentException("transactionTimeout must be at least the exactly-once commit interval ("
          + EOS_COMMIT_INTERVAL.toMillis() + " ms): " + transactionTimeout);
    }
  }

  /**
   * Sets them on the group's consumer and on the producers, unless the client properties set them
   * in any form Streams reads (plain, {@code consumer.}, {@code main.consumer.}, {@code producer.}):
   * an operator's override wins, and a prefixed default here would beat a plain one there.
   */
  void putInto(Properties p, Map<String, String> client) {
    if (!setIn(client, ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, StreamsConfig.CONSUMER_PREFIX,
        StreamsConfig.MAIN_CONSUMER_PREFIX)) {
      p.put(StreamsConfig.mainConsumerPrefix(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG),
          Long.toString(sessionTimeout.toMillis()));
      if (!setIn(client, ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, StreamsConfig.CONSUMER_PREFIX,
          StreamsConfig.MAIN_CONSUMER_PREFIX)) {
        p.put(StreamsConfig.mainConsumerPrefix(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG),
            Long.toString(Math.max(1, sessionTimeout.toMillis() / 3)));
      }
    }
    if (!setIn(client, ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, StreamsConfig.PRODUCER_PREFIX)) {
      p.put(StreamsConfig.producerPrefix(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG),
          Long.toString(transactionTimeout.toMillis()));
    }
  }

  private static boolean setIn(Map<String, String> client, String key, String... prefixes) {
    return client.containsKey(key) || Arrays.stream(prefixes).anyMatch(prefix -> client.containsKey(prefix + key));
  }
}
