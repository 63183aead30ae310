package dev.kubeheadroom.schemas;

import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;

/** The serde of each topic's value type. */
public final class HeadroomSerdes {
  private HeadroomSerdes() {}

  public static JsonSerde<NodeEvent> nodeEvents() {
    return new JsonSerde<>(NodeEvent.class);
  }

  public static JsonSerde<NodeDecision> decisions() {
    return new JsonSerde<>(NodeDecision.class);
  }

  public static JsonSerde<NamespaceInfo> namespaces() {
    return new JsonSerde<>(NamespaceInfo.class);
  }

  public static JsonSerde<ClusterConfig> config() {
    return new JsonSerde<>(ClusterConfig.class);
  }

  public static JsonSerde<DeadLetter> deadLetters() {
    return new JsonSerde<>(DeadLetter.class);
  }

  /** Binary ({@link CheckpointCodec}); reads the JSON checkpoints written before it too. */
  public static Serde<NodeCheckpoint> checkpoints() {
    return Serdes.serdeFrom((topic, c) -> c == null ? null : CheckpointCodec.encode(c),
        (topic, data) -> data == null ? null : CheckpointCodec.decode(data));
  }
}
