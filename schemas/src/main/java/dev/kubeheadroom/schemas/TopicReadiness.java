package dev.kubeheadroom.schemas;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.TopicExistsException;

/**
 * Creates topics and waits until they can take writes, against any broker (embedded or not).
 *
 * <p>Why the wait: right after {@code createTopics} returns, a partition may have no leader yet,
 * or a leader in the metadata whose replica manager has not caught up. An idempotent producer that
 * starts in that window can hit {@code NOT_LEADER_OR_FOLLOWER} and then {@code
 * OUT_OF_ORDER_SEQUENCE_NUMBER} until its delivery timeout, and those records are lost (a known
 * Kafka client bug; {@code docs/design/testing.md}). So a topic is ready only when every partition
 * has a leader <em>and</em> that leader answers a {@code ListOffsets} for it.
 *
 * <p>The one such wait: {@link TopicBootstrap} (every stage, in production) and the embedded
 * broker and test kit all go through it.
 */
public final class TopicReadiness {

  /** Default bound on {@link #createAndAwaitLeaders} and {@link #awaitLeaders}. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);

  private static final long BACKOFF_MILLIS = 20;

  private TopicReadiness() {}

  /**
   * Topic specs with the given partition counts, the broker's default replication factor and the
   * same configs for every topic (for example {@code cleanup.policy=compact}).
   */
  public static List<NewTopic> specs(
      Map<String, Integer> partitionsByName, Map<String, String> topicConfigs) {
    List<NewTopic> specs = new ArrayList<>(partitionsByName.size());
    partitionsByName.forEach(
        (name, partitions) -> {
          if (partitions == null || partitions < 1) {
            throw new IllegalArgumentException(
                "topic " + name + " needs at least 1 partition, got " + partitions);
          }
          specs.add(
              new NewTopic(name, Optional.of(partitions), Optional.empty())
                  .configs(Map.copyOf(topicConfigs)));
        });
    return specs;
  }

  /**
   * Creates the topics that do not exist yet (existing ones are left as they are, whatever their
   * partition count) and waits until every partition of every named topic has a serving leader.
   *
   * @throws TimeoutException if some partition has no serving leader within {@code timeout}
   * @throws KafkaException if the broker rejects a topic (bad name, bad config, ...)
   */
  public static void createAndAwaitLeaders(
      Admin admin, Collection<NewTopic> topics, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    Map<String, KafkaFuture<Void>> created = admin.createTopics(topics).values();
    for (Map.Entry<String, KafkaFuture<Void>> entry : created.entrySet()) {
      try {
        entry.getValue().get(remainingMillis(deadline), TimeUnit.MILLISECONDS);
      } catch (ExecutionException e) {
        if (!(e.getCause() instanceof TopicExistsException)) {
          throw new KafkaException("cannot create topic " + entry.getKey(), e.getCause());
        }
      } catch (java.util.concurrent.TimeoutException e) {
        throw new TimeoutException(
            "topic " + entry.getKey() + " was not created within " + timeout, e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptException(e);
      }
    }
    awaitLeaders(admin, created.keySet(), Duration.ofMillis(remainingMillis(deadline)));
  }

  /**
   * As above, for the topics named with their partition counts and the same configs each, within
   * {@link #DEFAULT_TIMEOUT}, through an admin client from {@code admin} closed afterwards.
   */
  public static void createAndAwaitLeaders(Supplier<Admin> admin, Map<String, Integer> partitionsByName,
      Map<String, String> topicConfigs) {
    try (Admin client = admin.get()) {
      createAndAwaitLeaders(client, specs(partitionsByName, topicConfigs), DEFAULT_TIMEOUT);
    }
  }

  /**
   * Waits until every partition of every named topic has a leader that answers {@code ListOffsets}.
   * Unknown topics are waited for too (they may still be propagating).
   *
   * @throws TimeoutException if that does not happen within {@code timeout}; the message names the
   *     partitions still waiting
   */
  public static void awaitLeaders(Admin admin, Collection<String> topicNames, Duration timeout) {
    Set<String> names = new LinkedHashSet<>(topicNames);
    if (names.isEmpty()) {
      return;
    }
    long deadline = System.nanoTime() + timeout.toNanos();
    Object lastProblem = "nothing checked yet";
    while (true) {
      try {
        Map<String, TopicDescription> descriptions =
            admin.describeTopics(names).allTopicNames().get(
                remainingMillis(deadline), TimeUnit.MILLISECONDS);
        List<TopicPartition> leaderless = new ArrayList<>();
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        for (TopicDescription description : descriptions.values()) {
          for (TopicPartitionInfo partition : description.partitions()) {
            TopicPartition tp = new TopicPartition(description.name(), partition.partition());
            if (partition.leader() == null || partition.leader().isEmpty()) {
              leaderless.add(tp);
            } else {
              latest.put(tp, OffsetSpec.latest());
            }
          }
        }
        if (leaderless.isEmpty()) {
          // The metadata names a leader; prove the leader itself serves the partition.
          int remaining = (int) Math.max(1, Math.min(Integer.MAX_VALUE, remainingMillis(deadline)));
          admin.listOffsets(latest, new ListOffsetsOptions().timeoutMs(remaining))
              .all()
              .get(remaining, TimeUnit.MILLISECONDS);
          return;
        }
        lastProblem = "no leader yet for " + leaderless;
      } catch (ExecutionException e) {
        if (!(e.getCause() instanceof RetriableException)) {
          throw new KafkaException("cannot check leaders of " + names, e.getCause());
        }
        lastProblem = e.getCause().toString();
      } catch (java.util.concurrent.TimeoutException e) {
        lastProblem = "the broker did not answer in time";
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptException(e);
      }
      if (System.nanoTime() >= deadline) {
        throw new TimeoutException(
            "topics " + names + " not ready after " + timeout + ": " + lastProblem);
      }
      pause();
    }
  }

  private static long remainingMillis(long deadlineNanos) {
    return Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadlineNanos - System.nanoTime()));
  }

  private static void pause() {
    try {
      // Back-off between polls of the broker's metadata; bounded by the caller's deadline.
      TimeUnit.MILLISECONDS.sleep(BACKOFF_MILLIS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptException(e);
    }
  }
}
