package dev.kubeheadroom.schemas;

import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * A Kafka serde over {@link JsonCodec}. A null payload is a tombstone (null value) on both sides;
 * anything unreadable throws {@link SchemaException}, which the stages' deserialization handlers
 * turn into a dead-letter record.
 */
public final class JsonSerde<T> implements Serde<T>, Serializer<T>, Deserializer<T> {
  private final Class<T> type;

  public JsonSerde(Class<T> type) {
    this.type = type;
  }

  @Override
  public byte[] serialize(String topic, T data) {
    return data == null ? null : JsonCodec.encode(data);
  }

  @Override
  public T deserialize(String topic, byte[] data) {
    return data == null ? null : JsonCodec.decode(data, type);
  }

  @Override
  public void configure(java.util.Map<String, ?> configs, boolean isKey) {
    // nothing to configure: the mapping is fixed
  }

  @Override
  public void close() {
    // stateless
  }

  @Override
  public Serializer<T> serializer() {
    return this;
  }

  @Override
  public Deserializer<T> deserializer() {
    return this;
  }
}
