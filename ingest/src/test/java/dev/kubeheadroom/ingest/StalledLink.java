package dev.kubeheadroom.ingest;

import java.util.Map;
import org.apache.kafka.clients.producer.ProducerInterceptor;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;

/**
 * A link to Kafka that stalls on demand, given to one ingest's producer as a real client setting
 * ({@link #CLIENT_PROPERTIES}: {@code interceptor.classes}). While stalled, the producer's send
 * waits, so the sink's queued records stay queued, as behind a slow or partitioned link;
 * released, they go, in order. One switch per JVM: configure it on one producer only.
 */
public final class StalledLink implements ProducerInterceptor<Object, Object> {
  /** The client properties that put this link under a producer. */
  static final Map<String, String> CLIENT_PROPERTIES = Map.of("interceptor.classes", StalledLink.class.getName());

  private static final Object LOCK = new Object();
  private static boolean stalled; // guarded by LOCK

  /** Stalls ({@code true}) or releases ({@code false}) every producer this link is under. */
  static void stall(boolean value) {
    synchronized (LOCK) {
      stalled = value;
      LOCK.notifyAll();
    }
  }

  @Override
  public ProducerRecord<Object, Object> onSend(ProducerRecord<Object, Object> record) {
    synchronized (LOCK) {
      while (stalled) {
        try {
          LOCK.wait();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return record;
        }
      }
    }
    return record;
  }

  @Override
  public void onAcknowledgement(RecordMetadata metadata, Exception exception) {}

  @Override
  public void close() {}

  @Override
  public void configure(Map<String, ?> configs) {}
}
