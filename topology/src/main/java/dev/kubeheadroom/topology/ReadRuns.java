package dev.kubeheadroom.topology;

import dev.kubeheadroom.schemas.NodeCheckpoint.Run;
import dev.kubeheadroom.schemas.VarintReader;
import dev.kubeheadroom.schemas.VarintWriter;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Per node, the runs of one topic a task has read since its last boundary: the read order each
 * checkpoint carries ({@code NodeCheckpoint.order}). A map entry per node touched in the
 * interval, a run per change of topic; one lookup per record.
 *
 * <p>A node's runs are also stored ({@link #encoded}, {@link #restore}), so a task restarted or
 * revived within an interval goes on from the order it had committed: a varint per run, its
 * record count shifted left by two and its topic's index among the task's (at most four) source
 * topics in the low bits. One or two bytes for a node read from one topic, a few more per change.
 */
public final class ReadRuns {
  /** The low bits of a stored run: its topic's index among the source topics. */
  private static final int TOPIC_BITS = 2;
  private final Map<String, List<Run>> byNode = new HashMap<>();

  /** One more record of {@code node} read from {@code topic}: the last run grows, or a new one starts. */
  public void note(String node, String topic) {
    List<Run> runs = byNode.computeIfAbsent(node, n -> new ArrayList<>(2));
    int last = runs.size() - 1;
    if (last >= 0 && runs.get(last).topic().equals(topic)) {
      runs.set(last, new Run(topic, runs.get(last).records() + 1));
    } else {
      runs.add(new Run(topic, 1));
    }
  }

  /** The node's runs since the last boundary: empty when none of its records was read. */
  public List<Run> of(String node) {
    return byNode.getOrDefault(node, List.of());
  }

  /** The nodes with a run since the last boundary. */
  public Set<String> nodes() {
    return byNode.keySet();
  }

  public void clear() {
    byNode.clear();
  }

  /** The node's runs as stored; {@code topics} are the task's source topics, in a fixed order. */
  public byte[] encoded(String node, List<String> topics) {
    List<Run> runs = of(node);
    VarintWriter w = new VarintWriter(2 * runs.size());
    for (Run r : runs) {
      int index = topics.indexOf(r.topic());
      if (index < 0 || index >= 1 << TOPIC_BITS) {
        throw new IllegalArgumentException("a run of " + r.topic() + ", not one of the sources " + topics);
      }
      w.varLong(((long) r.records() << TOPIC_BITS) | index);
    }
    return w.toByteArray();
  }

  /** Takes back the runs {@link #encoded} wrote for {@code node}, as they were committed. */
  public void restore(String node, byte[] stored, List<String> topics) {
    VarintReader in = new VarintReader(ByteBuffer.wrap(stored), "node " + node + "'s stored read order");
    List<Run> runs = new ArrayList<>(2);
    while (in.remaining() > 0) {
      long v = in.varLong();
      runs.add(new Run(topics.get((int) (v & ((1 << TOPIC_BITS) - 1))), (int) Math.min(Integer.MAX_VALUE, v >>> TOPIC_BITS)));
    }
    byNode.put(node, runs);
  }
}
