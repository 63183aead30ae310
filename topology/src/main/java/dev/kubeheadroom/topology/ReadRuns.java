package dev.kubeheadroom.topology;

import dev.kubeheadroom.schemas.NodeCheckpoint.Run;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Per node, the runs of one topic a task has read since its last boundary: the read order each
 * checkpoint carries ({@code NodeCheckpoint.order}). A map entry per node touched in the
 * interval, a run per change of topic; one lookup per record.
 */
public final class ReadRuns {
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

  public void clear() {
    byNode.clear();
  }
}
