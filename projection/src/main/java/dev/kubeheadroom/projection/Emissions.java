package dev.kubeheadroom.projection;

import dev.kubeheadroom.schemas.ClusterConfig;
import dev.kubeheadroom.schemas.NamespaceInfo;
import dev.kubeheadroom.schemas.NodeEvent;
import dev.kubeheadroom.schemas.PodRemoved;
import dev.kubeheadroom.schemas.PodSnapshot;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.ArrayList;
import java.util.List;

/**
 * What a {@link ClusterProjector} emitted, kept as data in the order it came, for a caller that
 * publishes the records itself once the projector's calls have returned (ingest: it sends them to
 * Kafka, then acts on what was published). The projector hands nothing to the caller's code
 * while it runs. Single-threaded, as the projector.
 */
public final class Emissions implements ClusterProjector.Output {
  /** One record the projector emitted. */
  public sealed interface Emission {}

  public record NodeEmitted(String node, NodeEvent event) implements Emission {}

  /**
   * @param previous what was published for the uid before, or null
   * @param source the pod it was projected from
   */
  public record PodEmitted(PodSnapshot snapshot, PodSnapshot previous, Pod source) implements Emission {}

  public record PodRemovedEmitted(PodRemoved removed, PodSnapshot previous) implements Emission {}

  /** @param info null: a tombstone */
  public record NamespaceEmitted(String name, NamespaceInfo info) implements Emission {}

  /** @param config null: a tombstone (the defaults, dry-run) */
  public record ConfigEmitted(ClusterConfig config) implements Emission {}

  private final List<Emission> emitted = new ArrayList<>();

  /** What was emitted since the last call, in order; the list starts empty again. */
  public List<Emission> drain() {
    List<Emission> out = List.copyOf(emitted);
    emitted.clear();
    return out;
  }

  @Override
  public void node(String node, NodeEvent event) {
    emitted.add(new NodeEmitted(node, event));
  }

  @Override
  public void pod(PodSnapshot snapshot, PodSnapshot previous, Pod source) {
    emitted.add(new PodEmitted(snapshot, previous, source));
  }

  @Override
  public void podRemoved(PodRemoved removed, PodSnapshot previous) {
    emitted.add(new PodRemovedEmitted(removed, previous));
  }

  @Override
  public void namespace(String name, NamespaceInfo info) {
    emitted.add(new NamespaceEmitted(name, info));
  }

  @Override
  public void config(ClusterConfig config) {
    emitted.add(new ConfigEmitted(config));
  }
}
