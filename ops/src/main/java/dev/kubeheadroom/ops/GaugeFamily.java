package dev.kubeheadroom.ops;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Gauges of one name, one per label-value tuple, each removable, at most {@code maxSeries} of
 * them: a tuple first seen when the family is full is not exported ({@link #set} answers false),
 * so a family's cardinality is bounded whatever the cluster's size.
 */
final class GaugeFamily {
  private final MeterRegistry registry;
  private final String name;
  private final String description;
  private final List<String> labels;
  private final int maxSeries;
  private final Map<List<String>, Cell> cells = new ConcurrentHashMap<>();

  GaugeFamily(MeterRegistry registry, String name, String description, int maxSeries,
      String... labels) {
    this.registry = registry;
    this.name = name;
    this.description = description;
    this.maxSeries = maxSeries;
    this.labels = List.of(labels);
  }

  GaugeFamily(MeterRegistry registry, String name, String description, String... labels) {
    this(registry, name, description, Integer.MAX_VALUE, labels);
  }

  /** Sets the tuple's value; false when the tuple is new and the family is full (not exported). */
  boolean set(double value, String... labelValues) {
    List<String> key = List.of(labelValues);
    Cell existing = cells.get(key);
    if (existing == null && cells.size() >= maxSeries) {
      return false; // a racing insert may pass the bound by a few: bounded is what matters
    }
    cells.computeIfAbsent(key, this::register).bits().set(Double.doubleToLongBits(value));
    return true;
  }

  private Cell register(List<String> key) {
    AtomicLong bits = new AtomicLong();
    Tags tags = Tags.empty();
    for (int i = 0; i < labels.size(); i++) {
      tags = tags.and(labels.get(i), key.get(i));
    }
    Gauge gauge = Gauge.builder(name, bits, b -> Double.longBitsToDouble(b.get()))
        .description(description)
        .tags(tags)
        .strongReference(true)
        .register(registry);
    return new Cell(bits, gauge);
  }

  int size() {
    return cells.size();
  }

  void clear() {
    cells.keySet().forEach(key -> remove(key.toArray(String[]::new)));
  }

  void remove(String... labelValues) {
    cells.computeIfPresent(List.of(labelValues), (k, cell) -> {
      registry.remove(cell.gauge());
      return null;
    });
  }

  private record Cell(AtomicLong bits, Gauge gauge) {}
}
