package dev.kubeheadroom.replay;

import dev.kubeheadroom.projection.NodeProjection;
import dev.kubeheadroom.projection.PodProjection;
import dev.kubeheadroom.projection.WatchEvent;
import dev.kubeheadroom.projection.WatchLogItem;
import dev.kubeheadroom.schemas.NodeSnapshot;
import dev.kubeheadroom.schemas.PodSnapshot;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.Iterator;

/**
 * A watch-log item with what its line gives by itself, before any cluster state: a pod's plain
 * projection ({@code PodProjection.project(pod, false)}), a node's snapshot. {@code simulate} makes
 * these on its reading thread, so the main thread (the wall-time path) only does what needs the
 * state. A projection that failed is kept and thrown where the projector would have thrown it:
 * the same warnings, in the same order, as projecting on the main thread.
 *
 * @param ahead false: nothing was made ahead, the snapshots are projected on the main thread as
 *     they are asked for (the yardstick tests hold the replay to)
 * @param plainPod the pod's plain snapshot, null when unbound (or not a pod)
 * @param node the node's snapshot (null when not a node)
 * @param failure what projecting the object threw, or null
 */
record PreparedItem(WatchLogItem item, boolean ahead, PodSnapshot plainPod, NodeSnapshot node,
    RuntimeException failure) {

  /** The item with its object projected now (on the reading thread). */
  static PreparedItem of(WatchLogItem item) {
    if (!(item instanceof WatchEvent event) || event.type() == WatchEvent.Type.DELETED) {
      return new PreparedItem(item, true, null, null, null); // a deletion needs no projection
    }
    try {
      if (event.object() instanceof Pod pod) {
        return new PreparedItem(item, true, PodProjection.project(pod, false).orElse(null), null, null);
      }
      if (event.object() instanceof Node node) {
        return new PreparedItem(item, true, null, NodeProjection.project(node), null);
      }
    } catch (RuntimeException e) {
      return new PreparedItem(item, true, null, null, e);
    }
    return new PreparedItem(item, true, null, null, null);
  }

  /** The item with nothing made ahead: the projector projects it as live ingest does. */
  static PreparedItem bare(WatchLogItem item) {
    return new PreparedItem(item, false, null, null, null);
  }

  /**
   * {@code pod}'s plain snapshot (null when unbound): made ahead, else projected now as the
   * projector would; throws what projecting it threw.
   */
  PodSnapshot plainPodOf(Pod pod) {
    if (!ahead) {
      return PodProjection.project(pod, false).orElse(null);
    }
    if (failure != null) {
      throw failure;
    }
    return plainPod;
  }

  /** {@code node}'s snapshot: made ahead, else projected now; throws what projecting it threw. */
  NodeSnapshot nodeOf(Node node) {
    if (!ahead) {
      return NodeProjection.project(node);
    }
    if (failure != null) {
      throw failure;
    }
    return this.node;
  }

  /** {@code source}'s items, each prepared as it is taken (so on the thread that takes it). */
  static Iterator<PreparedItem> mapped(Iterator<WatchLogItem> source, boolean ahead) {
    return new Iterator<>() {
      @Override
      public boolean hasNext() {
        return source.hasNext();
      }

      @Override
      public PreparedItem next() {
        WatchLogItem item = source.next();
        return ahead ? of(item) : bare(item);
      }
    };
  }
}
