package dev.kubeheadroom.kubedouble;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.mockwebserver.crud.AttributeSet;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The CRUD mock's store as lists and watches read it: its objects as stored (JSON strings keyed
 * by attributes), selected without parsing them. Read under the dispatcher's read lock, so no
 * write runs meanwhile.
 */
record CrudStore(Map<AttributeSet, String> map, Function<String, AttributeSet> keys) implements ListPager.Store {

  @Override
  public AttributeSet query(String path) {
    return keys.apply(path);
  }

  @Override
  public List<Map.Entry<AttributeSet, String>> select(AttributeSet query) {
    synchronized (map) { // a synchronized map: iterate under its own lock too
      return map.entrySet().stream().filter(e -> e.getKey().matches(query))
          .map(e -> Map.entry(e.getKey(), e.getValue())).toList();
    }
  }

  /** The stored JSON values of a collection path, unparsed (a caller may parse them after its lock). */
  List<String> values(String collectionPath) {
    AttributeSet collection = query(collectionPath);
    List<String> found = new ArrayList<>();
    synchronized (map) {
      map.forEach((key, value) -> {
        if (key.matches(collection)) {
          found.add(value);
        }
      });
    }
    return found;
  }

  /** Stored JSON values parsed, ordered by name (as a list answers). */
  static List<ObjectNode> byName(List<String> values) {
    List<ObjectNode> out = new ArrayList<>();
    values.forEach(v -> out.add(JsonResponses.read(v)));
    out.sort(Comparator.comparing(o -> o.path("metadata").path("name").asText()));
    return out;
  }
}
