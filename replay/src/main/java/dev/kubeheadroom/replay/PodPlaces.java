package dev.kubeheadroom.replay;

import dev.kubeheadroom.schemas.JsonCodec;
import dev.kubeheadroom.schemas.NodeCheckpoint;
import dev.kubeheadroom.schemas.NodeEvent;
import dev.kubeheadroom.schemas.PodSnapshot;
import dev.kubeheadroom.schemas.SchemaException;
import dev.kubeheadroom.schemas.Topics;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * An audit of one pod ({@code audit --at --pod}, {@code explain}) without replaying every node: a
 * node's booking holds the pod at a moment only if the node's checkpoint at the cut holds it, or
 * one of the node's pods records after the cut, up to the moment, is a snapshot of it (a pods
 * record is keyed by its node; the topology refuses one that is not). Those nodes, at most a few
 * (a pod moved, or deleted and re-created elsewhere under its name), are replayed alone ({@link
 * Audit#resumeNodes}); the others' checkpoints are not even decoded: only those whose bytes contain
 * the pod's name are ({@link StoredCut#nodesWhere}). Each node's replay being its own, the answer
 * is the whole cluster's replay's.
 */
public final class PodPlaces {
  private final String namespace;
  private final String name;
  /** The name as it appears in a stored value, or null when it may appear escaped (then every value is decoded). */
  private final byte[] needle;

  public PodPlaces(String namespace, String name) {
    this.namespace = namespace;
    this.name = name;
    this.needle = plain(name) ? name.getBytes(StandardCharsets.UTF_8) : null;
  }

  /**
   * Replays, from {@code stored}, the nodes the pod can be on at {@code at}: finds them (one read
   * of the pods topic past the cut), then replays the input topics folding only their records.
   *
   * @param consumers a fresh consumer per read (each closed after it)
   */
  public Audit replay(StoredCut stored, Supplier<Consumer<String, byte[]>> consumers, Duration timeout, Topics topics,
      Instant at, Audit.Progress progress) {
    Set<String> nodes = nodes(stored, consumers, timeout, topics, at);
    CheckpointCut cut = stored.of(nodes);
    try (TopicHistory history = new TopicHistory(consumers.get(), Audit.inputTopics(topics), timeout,
        Audit.scope(cut, topics))) {
      return Audit.resumeNodes(cut, history, topics, at, nodes, progress);
    }
  }

  /** The nodes whose booking can hold the pod at {@code at}: see the class comment. */
  Set<String> nodes(StoredCut stored, Supplier<Consumer<String, byte[]>> consumers, Duration timeout, Topics topics,
      Instant at) {
    Set<String> nodes = new TreeSet<>(stored.nodesWhere(this::mayName, this::heldBy));
    // the pods topic from where the whole cut's replay reads it: each partition from the cut's offset
    try (TopicHistory pods = new TopicHistory(consumers.get(), List.of(topics.pods()), timeout,
        Audit.scope(stored.of(Set.of()), topics))) {
      Instant next;
      while ((next = pods.peekTime()) != null && !next.isAfter(at)) {
        ConsumerRecord<String, byte[]> r = pods.next();
        if (r.key() != null && r.value() != null && mayName(r.value()) && snapshotOf(r.value())) {
          nodes.add(r.key());
        }
      }
    }
    return nodes;
  }

  boolean heldBy(NodeCheckpoint c) {
    return c.pods().stream().anyMatch(p -> namespace.equals(p.pod().namespace()) && name.equals(p.pod().name()));
  }

  private boolean snapshotOf(byte[] value) {
    try {
      return JsonCodec.decode(value, NodeEvent.class) instanceof PodSnapshot p && namespace.equals(p.namespace())
          && name.equals(p.name());
    } catch (SchemaException e) {
      return false; // the topology sends it to the dead-letter topic: it books nothing
    }
  }

  /** Whether {@code value}'s bytes can hold the pod's name: a test before decoding it. */
  boolean mayName(byte[] value) {
    if (needle == null) {
      return true;
    }
    int last = value.length - needle.length;
    byte first = needle[0];
    for (int i = 0; i <= last; i++) {
      if (value[i] == first && matchesAt(value, i)) {
        return true;
      }
    }
    return false;
  }

  private boolean matchesAt(byte[] value, int at) {
    for (int j = 1; j < needle.length; j++) {
      if (value[at + j] != needle[j]) {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether {@code s} is stored as its own bytes both in JSON (no escapes) and in the binary
   * checkpoint (UTF-8): printable ASCII, no quote or backslash. Every Kubernetes name is.
   */
  private static boolean plain(String s) {
    if (s.isEmpty()) {
      return false;
    }
    for (int i = 0; i < s.length(); i++) {
      char ch = s.charAt(i);
      if (ch < 0x20 || ch > 0x7e || ch == '"' || ch == '\\') {
        return false;
      }
    }
    return true;
  }
}
