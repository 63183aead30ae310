package dev.kubeheadroom.topology;

import dev.kubeheadroom.schemas.ClusterConfig;
import dev.kubeheadroom.schemas.Topics;
import java.time.Duration;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * What the topology is built from.
 *
 * @param topics topic names
 * @param tick how often the wall-clock punctuator looks for due nodes (default 100 ms); bounds
 *     how late after its debounce a node is flushed
 * @param configView applied to every config read (simulate forces enforcement; demo speeds time)
 * @param maxRecordBytes the largest decision record the topology sends (default 512 KiB); a
 *     larger decision is sent in parts (DESIGN.md, "Oversized records"). {@link TopologyRunner}
 *     keeps it under the producer's {@code max.request.size}.
 */
public record TopologySettings(Topics topics, Duration tick, UnaryOperator<ClusterConfig> configView,
    int maxRecordBytes) {
  public static final Duration DEFAULT_TICK = Duration.ofMillis(100);

  public TopologySettings {
    Objects.requireNonNull(topics, "topics");
    if (tick == null || tick.isZero() || tick.isNegative()) {
      throw new IllegalArgumentException("tick must be positive");
    }
    configView = configView == null ? UnaryOperator.identity() : configView;
    if (maxRecordBytes < 1024) {
      throw new IllegalArgumentException("maxRecordBytes must be at least 1024, got " + maxRecordBytes);
    }
  }

  public TopologySettings(Topics topics, Duration tick, UnaryOperator<ClusterConfig> configView) {
    this(topics, tick, configView, DecisionParts.DEFAULT_MAX_BYTES);
  }

  public static TopologySettings defaults(Topics topics) {
    return new TopologySettings(topics, DEFAULT_TICK, UnaryOperator.identity());
  }

  public TopologySettings withMaxRecordBytes(int bytes) {
    return new TopologySettings(topics, tick, configView, bytes);
  }
}
