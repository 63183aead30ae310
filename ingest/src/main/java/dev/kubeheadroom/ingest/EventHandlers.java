package dev.kubeheadroom.ingest;

import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import java.util.function.Consumer;

/** An informer's events as two callbacks: added or updated, and deleted. */
final class EventHandlers {
  private EventHandlers() {}

  static <T> ResourceEventHandler<T> of(Consumer<T> changed, Consumer<T> deleted) {
    return new ResourceEventHandler<>() {
      @Override
      public void onAdd(T obj) {
        changed.accept(obj);
      }

      @Override
      public void onUpdate(T oldObj, T newObj) {
        changed.accept(newObj);
      }

      @Override
      public void onDelete(T obj, boolean deletedFinalStateUnknown) {
        deleted.accept(obj);
      }
    };
  }

}
