package dev.kubeheadroom.scenarios;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.time.Instant;
import java.util.Objects;

/**
 * One watch event of a scenario: what the API server's watch stream would say at {@code at}.
 * The object is a full fabric8 object (Namespace, Node, Pod, or a HeadroomConfig as a generic
 * resource); {@link WatchLogWriter} prints it in the {@code simulate} watch-log form, {@code demo}
 * applies it to its simulated API server.
 */
public record ScenarioEvent(Instant at, Type type, HasMetadata object) {
  /** The watch event types. */
  public enum Type { ADDED, MODIFIED, DELETED }

  public ScenarioEvent {
    Objects.requireNonNull(at, "at");
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(object, "object");
  }

  /** {@code Kind(namespace/name)}, for messages. */
  public String ref() {
    String ns = object.getMetadata().getNamespace();
    return object.getKind() + "(" + (ns == null ? "" : ns + "/") + object.getMetadata().getName() + ")";
  }
}
