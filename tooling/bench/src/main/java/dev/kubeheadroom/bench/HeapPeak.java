package dev.kubeheadroom.bench;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

/**
 * The JVM's heap over a window: the highest used heap sampled (every 20 ms; garbage included, so
 * it depends on the heap size and the collector) and the highest heap left after a collection
 * (the live set, what the load distorts least).
 */
final class HeapPeak implements AutoCloseable {
  /** Bytes: the highest sampled use and the highest after-collection use. */
  record Peak(long usedBytes, long afterGcBytes, int collections) {
    String describe() {
      return String.format(java.util.Locale.ROOT, "peak used %d MB, peak after GC %d MB (%d collections)",
          usedBytes >> 20, afterGcBytes >> 20, collections);
    }
  }

  private final AtomicLong used = new AtomicLong();
  private final AtomicLong afterGc = new AtomicLong();
  private final AtomicLong collections = new AtomicLong();
  private final List<Runnable> undo = new ArrayList<>();
  private final Thread sampler;
  private volatile boolean running = true;

  HeapPeak() {
    NotificationListener listener = (notification, handback) -> {
      if (GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(notification.getType())) {
        GarbageCollectionNotificationInfo info =
            GarbageCollectionNotificationInfo.from((CompositeData) notification.getUserData());
        long after = info.getGcInfo().getMemoryUsageAfterGc().values().stream().mapToLong(MemoryUsage::getUsed).sum();
        afterGc.accumulateAndGet(after, Math::max);
        collections.incrementAndGet();
      }
    };
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      if (gc instanceof NotificationEmitter emitter) {
        emitter.addNotificationListener(listener, null, null);
        undo.add(() -> {
          try {
            emitter.removeNotificationListener(listener);
          } catch (Exception e) {
            // already gone
          }
        });
      }
    }
    sampler = new Thread(() -> {
      while (running) {
        used.accumulateAndGet(ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed(), Math::max);
        try {
          Thread.sleep(20);
        } catch (InterruptedException e) {
          return;
        }
      }
    }, "heap-peak");
    sampler.setDaemon(true);
    sampler.start();
  }

  /** Heap in use after a full collection now (the live set at this moment). */
  static long liveNow() {
    System.gc();
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  Peak peak() {
    return new Peak(used.get(), afterGc.get(), (int) collections.get());
  }

  @Override
  public void close() {
    running = false;
    sampler.interrupt();
    undo.forEach(Runnable::run);
  }
}
