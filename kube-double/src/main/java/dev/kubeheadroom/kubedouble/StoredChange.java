package dev.kubeheadroom.kubedouble;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.mockwebserver.crud.AttributeSet;

/**
 * One write to the store, as etcd records it: the revision it was written at and the object's
 * state before and after (null before a create, null after a delete), with the attributes the
 * CRUD mock matches paths and label selectors against.
 *
 * @param revision the store revision of this write (for a delete, the revision of the delete)
 */
record StoredChange(long revision, String namespace, String name, AttributeSet oldAttributes, String oldState,
    AttributeSet newAttributes, String newState) {

  StoredChange {
    if (oldState == null && newState == null) {
      throw new IllegalArgumentException("a change needs a state before or after it");
    }
    namespace = namespace == null ? "" : namespace;
    name = name == null ? "" : name;
  }

  static StoredChange of(long revision, JsonNode object, AttributeSet oldAttributes, String oldState,
      AttributeSet newAttributes, String newState) {
    JsonNode meta = object.path("metadata");
    return new StoredChange(revision, meta.path("namespace").asText(""), meta.path("name").asText(""),
        oldAttributes, oldState, newAttributes, newState);
  }
}
