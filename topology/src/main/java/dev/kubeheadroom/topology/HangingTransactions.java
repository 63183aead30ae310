package dev.kubeheadroom.topology;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;
import org.apache.kafka.clients.admin.AbortTransactionSpec;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.ProducerState;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.admin.TransactionListing;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.AuthorizationException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds the topology's own hanging transactions and aborts them (topology DESIGN.md, "Kafka
 * outages"; docs/reliability.md, finding 10). A transaction hangs when a partition holds its
 * records with no marker while its coordinator holds no transaction over that partition: a
 * broker shutting down completes a commit without writing the markers to partitions whose
 * leader it can no longer find (the coordinator takes them for deleted). Every read_committed
 * reader then stops at the open records, for good: the topology's restore of its changelogs and
 * its fetch of the group's committed offsets among them, so no restart gets past it.
 *
 * <p>Aborting every partition of such a transaction leaves Kafka as if it never happened: its
 * offsets were never committed (the offsets partition hangs too), so the topology reads those
 * input records again and writes the same changelog and output records anew. Only producers
 * whose transactional id is this application's are touched, only for partitions their
 * coordinator does not list, only past the transaction timeout twice over.
 */
final class HangingTransactions {
  private static final Logger LOG = LoggerFactory.getLogger(HangingTransactions.class);
  /** The coordinator still drives these: their markers may be on their way. */
  private static final Set<TransactionState> IN_FLIGHT =
      EnumSet.of(TransactionState.ONGOING, TransactionState.PREPARE_COMMIT, TransactionState.PREPARE_ABORT);
  private static final String OFFSETS_TOPIC = "__consumer_offsets";

  /** One open transaction on one partition that its coordinator no longer holds. */
  record Hanging(TopicPartition partition, String transactionalId, long producerId, int producerEpoch,
      int coordinatorEpoch, long startOffset) {
    AbortTransactionSpec spec() {
      return new AbortTransactionSpec(partition, producerId, (short) producerEpoch, coordinatorEpoch);
    }

    /** What an operator runs where this client may not abort it (Kafka's own tool). */
    String command() {
      return "kafka-transactions.sh --bootstrap-server <kafka> abort --topic " + partition.topic() + " --partition "
          + partition.partition() + " --producer-id " + producerId + " --producer-epoch " + producerEpoch
          + " --coordinator-epoch " + coordinatorEpoch;
    }
  }

  private final Admin admin;
  private final String applicationId;
  private final Predicate<String> topics;
  private final Duration olderThan;
  private final Duration timeout;
  private boolean toldDenied;

  /**
   * @param topics the topics whose partitions may hold this application's transactions (besides
   *     its internal topics and the offsets topic): its sinks
   * @param olderThan how old an open transaction must be before it counts as hanging
   */
  HangingTransactions(Admin admin, String applicationId, Predicate<String> topics, Duration olderThan,
      Duration timeout) {
    this.admin = admin;
    this.applicationId = applicationId;
    this.topics = topics;
    this.olderThan = olderThan;
    this.timeout = timeout;
  }

  /** Finds this application's hanging transactions and aborts them; how many partitions it freed. */
  int abortOwn() {
    List<Hanging> hanging;
    try {
      hanging = find(System.currentTimeMillis());
    } catch (AuthorizationException e) {
      denied("cannot look for hanging transactions: " + e.getMessage(), List.of());
      return 0;
    }
    int aborted = 0;
    for (Hanging h : hanging) {
      try {
        get(admin.abortTransaction(h.spec()).all());
        LOG.warn("Aborted a hanging transaction of {} on {} (producer {} epoch {}, open since offset {}): its coordinator"
            + " completed it without writing this partition's marker; its records are read again", h.transactionalId(),
            h.partition(), h.producerId(), h.producerEpoch(), h.startOffset());
        aborted++;
      } catch (AuthorizationException e) {
        denied("may not abort hanging transactions (Kafka's ClusterAction): " + e.getMessage(), hanging);
        return aborted;
      } catch (RuntimeException e) {
        LOG.warn("Could not abort the hanging transaction on {}: {}", h.partition(), e.toString());
      }
    }
    return aborted;
  }

  private void denied(String why, List<Hanging> hanging) {
    if (toldDenied) {
      return;
    }
    toldDenied = true;
    StringBuilder commands = new StringBuilder();
    hanging.forEach(h -> commands.append("\n  ").append(h.command()));
    LOG.error("The topology {}; until an operator aborts them, it cannot restore or read its committed offsets"
        + " (runbook: Kafka outages){}", why, commands);
  }

  /** The hanging transactions of this application's producers, at {@code nowMs}. */
  List<Hanging> find(long nowMs) {
    Map<Long, String> ours = new HashMap<>();
    for (TransactionListing t : get(admin.listTransactions().all())) {
      if (t.transactionalId().startsWith(applicationId + "-")) {
        ours.put(t.producerId(), t.transactionalId());
      }
    }
    if (ours.isEmpty()) {
      return List.of();
    }
    Map<String, TransactionDescription> coordinators = new HashMap<>();
    var described = admin.describeTransactions(ours.values());
    for (String id : ours.values()) {
      try {
        coordinators.put(id, get(described.description(id)));
      } catch (AuthorizationException e) {
        throw e;
      } catch (RuntimeException e) {
        LOG.debug("no coordinator state for {}: {}", id, e.toString()); // its partitions are not judged
      }
    }
    // Its internal topics, which it may always read, and the offsets topic where this client may
    // describe it (listed only then: a commit of offsets alone hangs there and nowhere else); its
    // sinks, which a stage may write but not read, only once a hanging transaction was found: a
    // transaction hangs on all its partitions at once, and a slow start asks nothing refused.
    Collection<String> topicNames = get(admin.listTopics(new ListTopicsOptions().listInternal(true)).names());
    Map<TopicPartition, List<ProducerState>> producers = producers(topicNames.stream()
        .filter(t -> t.startsWith(applicationId + "-") || t.equals(OFFSETS_TOPIC)).toList());
    List<Hanging> found = hanging(ours, coordinators, producers, nowMs, olderThan);
    if (found.isEmpty()) {
      return found;
    }
    producers.putAll(producers(topicNames.stream()
        .filter(t -> !t.startsWith(applicationId + "-") && !t.equals(OFFSETS_TOPIC) && topics.test(t)).toList()));
    return hanging(ours, coordinators, producers, nowMs, olderThan);
  }

  /** The active producers of every partition of {@code names} this client may read. */
  private Map<TopicPartition, List<ProducerState>> producers(Collection<String> names) {
    Map<TopicPartition, List<ProducerState>> producers = new HashMap<>();
    if (names.isEmpty()) {
      return producers;
    }
    List<TopicPartition> partitions = new ArrayList<>();
    for (TopicDescription d : get(admin.describeTopics(names).allTopicNames()).values()) {
      d.partitions().forEach(p -> partitions.add(new TopicPartition(d.name(), p.partition())));
    }
    var result = admin.describeProducers(partitions);
    for (TopicPartition tp : partitions) {
      try {
        producers.put(tp, get(result.partitionResult(tp)).activeProducers());
      } catch (RuntimeException e) {
        LOG.debug("no producers of {}: {}", tp, e.toString()); // not readable by this client: not ours to judge
      }
    }
    return producers;
  }

  /** The rule, over what Kafka described (pure). */
  static List<Hanging> hanging(Map<Long, String> ours, Map<String, TransactionDescription> coordinators,
      Map<TopicPartition, List<ProducerState>> producers, long nowMs, Duration olderThan) {
    List<Hanging> out = new ArrayList<>();
    producers.forEach((tp, states) -> {
      for (ProducerState p : states) {
        String id = ours.get(p.producerId());
        if (id == null || p.currentTransactionStartOffset().isEmpty() || nowMs - p.lastTimestamp() < olderThan.toMillis()) {
          continue;
        }
        TransactionDescription coordinator = coordinators.get(id);
        if (coordinator == null) {
          continue; // its coordinator did not answer (loading after a restart): not judged blind
        }
        if (coordinator.producerId() == p.producerId() && IN_FLIGHT.contains(coordinator.state())
            && coordinator.topicPartitions().contains(tp)) {
          continue; // the coordinator holds it: it ends as every transaction does
        }
        out.add(new Hanging(tp, id, p.producerId(), p.producerEpoch(), p.coordinatorEpoch().orElse(-1),
            p.currentTransactionStartOffset().getAsLong()));
      }
    });
    out.sort(java.util.Comparator.comparing((Hanging h) -> h.partition().topic()).thenComparingInt(h -> h.partition().partition()));
    return out;
  }

  private <T> T get(org.apache.kafka.common.KafkaFuture<T> future) {
    try {
      return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      throw new IllegalStateException(e.getCause());
    } catch (TimeoutException e) {
      throw new IllegalStateException("Kafka did not answer within " + timeout, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }
}
