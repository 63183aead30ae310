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
 */
public record TopologySettings(Topics topics, Duration tick, UnaryOperator<ClusterConfig> configView) {
  public static final Duration DEFAULT_TICK = Duration.ofMillis(100);

  public TopologySettings {
    Objects.requireNonNull(topics, "topics");
    if (tick == null || tick.isZero() || tick.isNegative()) {
      throw new IllegalArgumentException("tick must be positive");
    }
    configView = configView == null ? UnaryOperator.identity() : configView;
  }

  public static TopologySettings defaults(Topics topics) {
    return new TopologySettings(topics, DEFAULT_TICK, UnaryOperator.identity());
  }
}
