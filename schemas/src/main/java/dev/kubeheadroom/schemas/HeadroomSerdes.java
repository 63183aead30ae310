package dev.kubeheadroom.schemas;

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

  public static JsonSerde<NodeCheckpoint> checkpoints() {
    return new JsonSerde<>(NodeCheckpoint.class);
  }
}
