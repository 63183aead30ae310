package dev.kubeheadroom.topology;

import dev.kubeheadroom.schemas.ClusterState;
import dev.kubeheadroom.schemas.DeadLetter;
import java.util.Objects;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps a global table (namespaces or config) and bumps the {@link GlobalVersion} when a value
 * really changes (resyncs republish identical values; those wake nobody). What a record means
 * (put, tombstone, unreadable) is {@link ClusterState#read}, the rule the actuator's and the
 * webhook's {@code ClusterStateReader} follows too. Unreadable records are skipped and counted: a
 * global processor cannot forward to the dead-letter topic.
 */
final class GlobalTableProcessor<V> implements Processor<String, byte[], Void, Void> {
  private static final Logger LOG = LoggerFactory.getLogger(GlobalTableProcessor.class);

  private final String storeName;
  private final Class<V> type;
  private final GlobalVersion version;
  private final TopologyListener listener;
  private KeyValueStore<String, V> store;
  private ProcessorContext<Void, Void> context;

  GlobalTableProcessor(String storeName, Class<V> type, GlobalVersion version, TopologyListener listener) {
    this.storeName = storeName;
    this.type = type;
    this.version = version;
    this.listener = listener;
  }

  @Override
  public void init(ProcessorContext<Void, Void> context) {
    this.context = context;
    this.store = context.getStateStore(storeName);
  }

  @Override
  public void process(Record<String, byte[]> record) {
    ClusterState.Change<V> change = ClusterState.read(record.key(), record.value(), type);
    if (change instanceof ClusterState.Change.Put<V> put) {
      if (!Objects.equals(store.get(put.key()), put.value())) {
        store.put(put.key(), put.value());
        version.bump();
      }
    } else if (change instanceof ClusterState.Change.Delete<V> delete) {
      if (store.delete(delete.key()) != null) {
        version.bump();
      }
    } else if (change instanceof ClusterState.Change.Unreadable<V> unreadable) {
      skip(record.key() == null ? DeadLetter.Kind.NULL_KEY : DeadLetter.Kind.UNREADABLE, unreadable.reason());
    }
  }

  private void skip(DeadLetter.Kind kind, String reason) {
    String topic = context.recordMetadata().map(m -> m.topic()).orElse(storeName);
    LOG.warn("Skipping unreadable record on {}: {}", topic, reason);
    listener.deadLetter(topic, kind, reason);
  }
}
