package dev.kubeheadroom.kubedouble;

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
}
