package dev.kubeheadroom.projection;

import io.fabric8.kubernetes.api.model.Quantity;

/**
 * A watch line's object as the one field table ({@link ProjectedFields}) reads it: field by field,
 * in the plain shapes the API server writes (a string where a string belongs, an integer
 * generation, a boolean {@code controller}, no nulls). Any other shape, and JSON that is not
 * JSON, is refused with {@link JsonBytes#REFUSED}, and the caller reads the line the full way.
 * Two cursors: {@link ProjectedByteFields} over a line's bytes and {@link ProjectedTokenFields}
 * over Jackson's tokens, so a field is declared once and bound from either.
 */
interface FieldCursor {
  /** Moves to the next field's value; false at the end of the object. */
  boolean field();

  /** The current field's name; {@link FieldName#OTHER} for one the table does not read. */
  FieldName fieldName();

  /** The current field's name as a map key (labels, annotations, quantities). */
  String key();

  /** At a value that must be an object: enters it. */
  void startObject();

  /** At a value that must be an array: enters it. */
  void startArray();

  /** Stops at the next element; false after the array's end. */
  boolean element();

  /** A string value of the line's own: names, uids, resource versions. */
  String string();

  /** A string value a log repeats (namespaces, node names, kinds, phases), shared where the cursor can. */
  String shared();

  /** An integer value that fits a long. */
  long integer();

  /** {@code true} or {@code false}. */
  Boolean bool();

  /** A quantity, as fabric8's {@code Quantity} deserializer builds it from its string. */
  Quantity quantity();

  /** Skips the value here, whatever it is. */
  void skipValue();
}
