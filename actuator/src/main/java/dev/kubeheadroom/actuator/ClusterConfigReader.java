package dev.kubeheadroom.actuator;

import dev.kubeheadroom.schemas.ClusterConfig;
import dev.kubeheadroom.schemas.HeadroomKeys;
import dev.kubeheadroom.schemas.HeadroomSerdes;
import dev.kubeheadroom.schemas.NamespaceInfo;
import dev.kubeheadroom.schemas.SchemaException;
import dev.kubeheadroom.schemas.TopicReader;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The latest {@link ClusterConfig} from the compacted {@code config} topic (key {@code cluster}),
 * and the namespaces ingest publishes to the compacted {@code namespaces} topic (key: the name),
 * both read from the beginning by a {@link TopicReader} (no consumer group). No config record,
 * or a tombstone, means {@link ClusterConfig#DEFAULTS}; a namespace tombstone removes it; an unreadable record is
 * logged and the last good value stays. The namespaces are what the actuator checks a decision's
 * namespace against (no API read: ingest already watches them). Used from the loop thread only.
 */
final class ClusterConfigReader implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ClusterConfigReader.class);

  private final TopicReader reader;
  private final String topic;
  private final String namespacesTopic;
  private final Map<String, NamespaceInfo> namespaces = new HashMap<>();
  private final UnaryOperator<ClusterConfig> view;
  private ClusterConfig current;

  ClusterConfigReader(ActuatorSettings settings) {
    Map<String, Object> config = new HashMap<>(settings.common());
    config.put(ConsumerConfig.CLIENT_ID_CONFIG, settings.groupId() + "-config");
    config.putAll(settings.clientProperties());
    this.topic = settings.topics().config();
    this.namespacesTopic = settings.topics().namespaces();
    this.reader = new TopicReader(config, List.of(topic, namespacesTopic));
    this.view = settings.configView();
    this.current = view.apply(ClusterConfig.DEFAULTS);
  }

  /** Assigns every partition and reads to the end; the defaults stay if the topic is empty. */
  ClusterConfig load(Duration timeout) {
    if (!reader.assign(timeout)) {
      throw new IllegalStateException("topic " + topic + " or " + namespacesTopic + " does not exist");
    }
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!reader.caughtUp(timeout)) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("could not read config topic " + topic + " within " + timeout);
      }
      take(reader.poll(Duration.ofMillis(100)));
    }
    return current;
  }

  /** Whatever arrived since the last call, without waiting; the new config if it changed. */
  Optional<ClusterConfig> poll() {
    ClusterConfig before = current;
    take(reader.poll(Duration.ZERO));
    return current.equals(before) ? Optional.empty() : Optional.of(current);
  }

  ClusterConfig current() {
    return current;
  }

  /** The namespace as ingest last published it; empty if it never did (or it was deleted). */
  Optional<NamespaceInfo> namespace(String name) {
    return Optional.ofNullable(namespaces.get(name));
  }

  private void take(Iterable<ConsumerRecord<String, byte[]>> records) {
    for (ConsumerRecord<String, byte[]> record : records) {
      if (namespacesTopic.equals(record.topic())) {
        takeNamespace(record);
        continue;
      }
      if (!HeadroomKeys.CONFIG_NAME.equals(record.key())) {
        continue;
      }
      if (record.value() == null) {
        current = view.apply(ClusterConfig.DEFAULTS);
        continue;
      }
      try {
        current = view.apply(HeadroomSerdes.config().deserialize(topic, record.value()));
      } catch (SchemaException | IllegalArgumentException e) {
        LOG.warn("Ignoring unreadable config at {}-{}@{} (keeping the last good one): {}",
            record.topic(), record.partition(), record.offset(), e.getMessage());
      }
    }
  }

  private void takeNamespace(ConsumerRecord<String, byte[]> record) {
    if (record.key() == null) {
      return;
    }
    if (record.value() == null) {
      namespaces.remove(record.key());
      return;
    }
    try {
      NamespaceInfo info = HeadroomSerdes.namespaces().deserialize(record.topic(), record.value());
      namespaces.put(record.key(), info);
    } catch (SchemaException | IllegalArgumentException e) {
      LOG.warn("Ignoring unreadable namespace at {}-{}@{}: {}", record.topic(), record.partition(),
          record.offset(), e.getMessage());
    }
  }

  @Override
  public void close() {
    reader.close();
  }
}
