package dev.kubeheadroom.kubedouble;

import io.fabric8.mockwebserver.crud.AttributeSet;
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
}
