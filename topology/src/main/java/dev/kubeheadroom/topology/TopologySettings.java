package dev.kubeheadroom.topology;

import dev.kubeheadroom.schemas.ClusterConfig;
import dev.kubeheadroom.schemas.Topics;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Consumer;
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
 * @param syncHoldLimit how long a node whose pods an ingest re-publish is sending (its {@code
 *     begin} sync mark read, its {@code end} not yet) waits at most for the end before it is decided
 *     on what it has (default 60 s; DESIGN.md, "Initial sync"): the end of a lost mark, never the
 *     usual wait, which is as long as reading the node's pods takes
 */
public record TopologySettings(Topics topics, Duration tick, UnaryOperator<ClusterConfig> configView,
    int maxRecordBytes, Duration syncHoldLimit) {
  public static final Duration DEFAULT_TICK = Duration.ofMillis(100);
  public static final Duration DEFAULT_SYNC_HOLD_LIMIT = Duration.ofSeconds(60);

  public TopologySettings {
    Objects.requireNonNull(topics, "topics");
    if (tick == null || tick.isZero() || tick.isNegative()) {
      throw new IllegalArgumentException("tick must be positive");
    }
    configView = configView == null ? UnaryOperator.identity() : configView;
    if (maxRecordBytes < 1024) {
      throw new IllegalArgumentException("maxRecordBytes must be at least 1024, got " + maxRecordBytes);
    }
    if (syncHoldLimit == null || syncHoldLimit.isNegative()) {
      throw new IllegalArgumentException("syncHoldLimit must be zero or more");
    }
  }

  public TopologySettings(Topics topics, Duration tick, UnaryOperator<ClusterConfig> configView) {
    this(topics, tick, configView, DecisionParts.DEFAULT_MAX_BYTES, DEFAULT_SYNC_HOLD_LIMIT);
  }

  public static TopologySettings defaults(Topics topics) {
    return new TopologySettings(topics, DEFAULT_TICK, UnaryOperator.identity());
  }

  /**
   * These settings with some changed: {@code settings.with(b -> b.maxRecordBytes = n)}, the
   * settings classes' one copy style (as {@code IngestSettings#with}).
   */
  public TopologySettings with(Consumer<Builder> change) {
    Builder b = new Builder();
    change.accept(b);
    return new TopologySettings(b.topics, b.tick, b.configView, b.maxRecordBytes, b.syncHoldLimit);
  }

  /** The components of the settings {@link #with} starts from (these settings'), to assign. */
  public final class Builder {
    public Topics topics = TopologySettings.this.topics;
    public Duration tick = TopologySettings.this.tick;
    public UnaryOperator<ClusterConfig> configView = TopologySettings.this.configView;
    public int maxRecordBytes = TopologySettings.this.maxRecordBytes;
    public Duration syncHoldLimit = TopologySettings.this.syncHoldLimit;
  }
}
