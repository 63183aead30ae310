package dev.kubeheadroom.schemas;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;

/**
 * Creates missing topics and checks the layout every stage relies on: the node-keyed topics
 * share one partition count, so a node's whole history lives in one partition and one task owns
 * it. A mismatch is refused with a message that says which topics differ.
 */
public final class TopicBootstrap {
  private TopicBootstrap() {}

  /** Raised when the existing topics cannot carry the pipeline. */
  public static class LayoutException extends RuntimeException {
    public LayoutException(String message) {
      super(message);
    }
  }

  /**
   * Raised when Kafka did not answer in time: nothing is known about the topics, and asking again
   * later may succeed (a stage waits for it rather than exit).
   */
  public static final class KafkaUnreachable extends LayoutException {
    public KafkaUnreachable(String message) {
      super(message);
    }
  }

  /** Kafka's own {@code TimeoutException} (an admin call's) somewhere in the cause chain. */
  private static boolean timedOut(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof org.apache.kafka.common.errors.TimeoutException) {
        return true;
      }
    }
    return false;
  }

  /** How long checkpoints are kept: twice the raw events' retention (see {@link #ensure}). */
  private static Duration checkpointRetention(TopicLayout layout) {
    return layout.retention().multipliedBy(2);
  }

  /**
   * A topic's configs: the given pairs plus the layout's {@code min.insync.replicas}, set on
   * every topic rather than left to the broker's default (1 unless the operator changed it), so
   * an acknowledged record is on that many replicas wherever Headroom runs.
   */
  private static Map<String, String> configs(TopicLayout layout, String... pairs) {
    Map<String, String> configs = new TreeMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      configs.put(pairs[i], pairs[i + 1]);
    }
    configs.put(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG, Integer.toString(layout.minInsyncReplicas()));
    return configs;
  }

  public static void ensure(Admin admin, Topics topics, TopicLayout layout, Duration timeout) {
    try {
      Set<String> existing = admin.listTopics().names().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      List<NewTopic> missing = new ArrayList<>();
      for (String name : topics.nodeKeyed()) {
        if (!existing.contains(name)) {
          missing.add(new NewTopic(name, layout.partitions(), layout.replicationFactor())
              .configs(configs(layout, TopicConfig.RETENTION_MS_CONFIG, Long.toString(layout.retention().toMillis()))));
        }
      }
      for (String name : topics.compacted()) {
        if (!existing.contains(name)) {
          missing.add(new NewTopic(name, 1, layout.replicationFactor())
              .configs(configs(layout, TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT)));
        }
      }
      if (!existing.contains(topics.deadLetter())) {
        missing.add(new NewTopic(topics.deadLetter(), 1, layout.replicationFactor())
            .configs(configs(layout, TopicConfig.RETENTION_MS_CONFIG, Long.toString(layout.retention().toMillis()))));
      }
      if (!existing.contains(topics.checkpoints())) {
        // Compacted (a re-derived checkpoint replaces its twin) and deleted by age at twice the
        // raw events' retention: every key is a new boundary, so compaction alone would keep one
        // record per node per 10 minutes forever. Twice the retention still leaves an audit of any
        // retained moment its checkpoint, and one the raw events' retention dropped a start. As
        // many partitions as the node-keyed topics, so `audit --verify` reads them in parallel.
        missing.add(new NewTopic(topics.checkpoints(), layout.partitions(), layout.replicationFactor())
            .configs(configs(layout, TopicConfig.CLEANUP_POLICY_CONFIG,
                TopicConfig.CLEANUP_POLICY_COMPACT + "," + TopicConfig.CLEANUP_POLICY_DELETE,
                TopicConfig.RETENTION_MS_CONFIG, Long.toString(checkpointRetention(layout).toMillis()))));
      }
      for (String name : topics.gangs()) {
        if (!existing.contains(name)) {
          // As many partitions as the node-keyed topics: gang-ceilings is read by node beside
          // them (checkPartitions refuses a mismatch), gang-members spreads gangs as widely.
          // Deleted by age like the events: the topology keeps what it needs in its stores.
          missing.add(new NewTopic(name, layout.partitions(), layout.replicationFactor())
              .configs(configs(layout, TopicConfig.RETENTION_MS_CONFIG, Long.toString(layout.retention().toMillis()))));
        }
      }
      if (!missing.isEmpty()) {
        try {
          admin.createTopics(missing).all().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
          if (!(e.getCause() instanceof TopicExistsException)) {
            throw e; // another stage creating them at the same time is fine
          }
        }
      }
      checkPartitions(admin, topics, timeout);
    } catch (ExecutionException e) {
      String why = "cannot set up topics: " + e.getCause().getMessage();
      throw timedOut(e) ? new KafkaUnreachable(why) : new LayoutException(why);
    } catch (TimeoutException e) {
      throw new KafkaUnreachable("cannot set up topics: Kafka did not answer within " + timeout);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new LayoutException("interrupted while setting up topics");
    }
  }

  /**
   * Checks existing topics without creating any (for clusters where Headroom may not create
   * topics): they must all exist and the node-keyed ones must share one partition count.
   */
  public static void verify(Admin admin, Topics topics, Duration timeout) {
    try {
      Set<String> existing = admin.listTopics().names().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      List<String> missing = new ArrayList<>();
      for (String name : topics.all()) {
        if (!existing.contains(name)) {
          missing.add(name);
        }
      }
      if (!missing.isEmpty()) {
        throw new LayoutException("topics missing: " + missing
            + " (create them, or let Headroom create them with --topic-create=true)");
      }
      checkPartitions(admin, topics, timeout);
    } catch (ExecutionException e) {
      String why = "cannot check topics: " + e.getCause().getMessage();
      throw timedOut(e) ? new KafkaUnreachable(why) : new LayoutException(why);
    } catch (TimeoutException e) {
      throw new KafkaUnreachable("cannot check topics: Kafka did not answer within " + timeout);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new LayoutException("interrupted while checking topics");
    }
  }

  /**
   * Waits until every topic is known to the broker and every partition has a leader that serves
   * it ({@link TopicReadiness#awaitLeaders}: an idempotent producer that starts earlier can lose
   * records), then refuses node-keyed topics with different partition counts.
   */
  static void checkPartitions(Admin admin, Topics topics, Duration timeout)
      throws ExecutionException, InterruptedException, TimeoutException {
    Instant deadline = Instant.now().plus(timeout);
    List<String> all = topics.all();
    try {
      TopicReadiness.awaitLeaders(admin, all, timeout);
    } catch (KafkaException e) {
      throw new ExecutionException(e.getMessage(), e);
    }
    long remaining = Math.max(1, Duration.between(Instant.now(), deadline).toMillis());
    List<String> byNode = new ArrayList<>(topics.nodeKeyed());
    byNode.add(topics.gangCeilings()); // keyed by node, read in the node's task
    Map<String, TopicDescription> described =
        admin.describeTopics(byNode).allTopicNames().get(remaining, TimeUnit.MILLISECONDS);
    Map<String, Integer> counts = new TreeMap<>();
    for (String name : byNode) {
      counts.put(name, described.get(name).partitions().size());
    }
    if (counts.values().stream().distinct().count() > 1) {
      throw new LayoutException("node-keyed topics must share one partition count, found " + counts
          + "; recreate them with the same count (or point --topic-prefix at a fresh set)");
    }
  }
}
