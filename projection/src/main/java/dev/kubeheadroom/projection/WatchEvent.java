package dev.kubeheadroom.projection;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.time.Instant;

/**
 * One watch event of a {@code simulate} watch log (docs/design/cli-contract.md).
 *
 * @param lineNumber 1-based line in the log
 * @param type ADDED, MODIFIED or DELETED
 * @param at the line's {@code at}, else the previous line's (the reader's start time before any)
 * @param object a fabric8 {@code Pod}, {@code Node}, {@code Namespace}, {@code LimitRange}, or a
 *     {@code GenericKubernetesResource} for HeadroomConfig and VerticalPodAutoscaler
 */
public record WatchEvent(long lineNumber, Type type, Instant at, HasMetadata object)
    implements WatchLogItem {

  public enum Type { ADDED, MODIFIED, DELETED }

  public WatchEvent {
    if (type == null || at == null || object == null) {
      throw new IllegalArgumentException("line " + lineNumber + ": type, at and object are required");
    }
  }

  /** {@code Kind(namespace/name)} or {@code Kind(name)}, for messages. */
  public String ref() {
    var meta = object.getMetadata();
    String name = meta == null ? "?" : meta.getName();
    String ns = meta == null ? null : meta.getNamespace();
    return object.getKind() + "(" + (ns == null ? "" : ns + "/") + name + ")";
  }
}
