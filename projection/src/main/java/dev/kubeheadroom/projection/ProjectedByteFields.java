package dev.kubeheadroom.projection;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;

/**
 * {@link FieldCursor} over a line's bytes ({@link JsonBytes}), for {@link ProjectedFields}' table:
 * strings that repeat across a log (namespaces, node names, label keys, phases, quantities ...)
 * come from a cache; names, uids and resource versions are made fresh. Not thread-safe (one per
 * reader).
 */
final class ProjectedByteFields implements FieldCursor {
  /** Strings a log repeats: a few hundred node names and namespaces, keys, phases, quantities. */
  private final ByteStrings vocabulary = new ByteStrings(2048);
  private final QuantityCache quantities = new QuantityCache(256);
  private JsonBytes j;

  ByteStrings vocabulary() {
    return vocabulary;
  }

  /** The pod at the cursor's next field (after {@code apiVersion} and {@code kind}). */
  Pod pod(JsonBytes line) {
    j = line;
    return ProjectedFields.pod(this);
  }

  /** The node at the cursor's next field (after {@code apiVersion} and {@code kind}). */
  Node node(JsonBytes line) {
    j = line;
    return ProjectedFields.node(this);
  }

  @Override
  public boolean field() {
    return j.field();
  }

  @Override
  public FieldName fieldName() {
    return j.fieldName();
  }

  @Override
  public String key() {
    return j.name(vocabulary);
  }

  @Override
  public void startObject() {
    j.startObject();
  }

  @Override
  public void startArray() {
    j.startArray();
  }

  @Override
  public boolean element() {
    return j.element();
  }

  @Override
  public String string() {
    return j.string();
  }

  @Override
  public String shared() {
    return j.string(vocabulary);
  }

  @Override
  public long integer() {
    return j.integer();
  }

  @Override
  public Boolean bool() {
    return j.bool();
  }

  @Override
  public Quantity quantity() {
    return quantities.of(j.string(vocabulary));
  }

  @Override
  public void skipValue() {
    j.skipValue();
  }
}
