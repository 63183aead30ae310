package dev.kubeheadroom.ingest;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.cache.Cache;

/**
 * An informer's events as keys on the {@link WorkQueue}: added, updated and deleted alike name the
 * object (counted in {@code headroom_ingest_events_total{kind}}), nothing more. What changed is
 * read from the informer's cache when the loop works the key; an object no longer there was
 * deleted.
 */
final class EventHandlers {
  private EventHandlers() {}

  /** @param metricKind the {@code kind} tag of the events counter */
  static <T extends HasMetadata> ResourceEventHandler<T> enqueue(WorkQueue queue, WorkQueue.Kind kind,
      String metricKind, IngestMetrics metrics) {
    return new ResourceEventHandler<>() {
      @Override
      public void onAdd(T obj) {
        named(obj);
      }

      @Override
      public void onUpdate(T oldObj, T newObj) {
        named(newObj);
      }

      @Override
      public void onDelete(T obj, boolean deletedFinalStateUnknown) {
        named(obj);
      }

      private void named(T obj) {
        metrics.event(metricKind);
        queue.add(new WorkQueue.Key(kind, Cache.metaNamespaceKeyFunc(obj)));
      }
    };
  }
}
