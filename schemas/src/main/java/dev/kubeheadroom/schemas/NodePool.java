package dev.kubeheadroom.schemas;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.time.Duration;
import java.util.Map;

/**
 * One entry of HeadroomConfig {@code spec.pools} (docs/design/headroom-design.txt §11.4): the nodes
 * its selector matches take its overrides; a knob it leaves unset (null) keeps the cluster's. The
 * first pool whose selector matches a node's labels applies ({@link ClusterConfig#poolFor}).
 *
 * @param name the pool's name, unique in the config; decisions and reports name it
 * @param nodeSelector which nodes belong (matchLabels AND matchExpressions); must not be empty
 * @param maxMultiplier overrides the cap multiplier; 0 = unlimited (a batch pool)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record NodePool(
    String name,
    LabelSelector nodeSelector,
    Long minBurstFloorMilli,
    Double maxMultiplier,
    Integer deadbandGrowPercent,
    Integer deadbandShrinkPercent,
    Duration debouncePeriod,
    Duration maxDebounceDelay) {

  public NodePool {
    Require.text(name, "pools[].name");
    if (nodeSelector == null || nodeSelector.isEmpty()) {
      throw new IllegalArgumentException("pools[" + name + "].nodeSelector must not be empty");
    }
    if (minBurstFloorMilli != null) {
      Require.nonNegative(minBurstFloorMilli, "pools[" + name + "].minBurstFloor");
    }
    if (maxMultiplier != null
        && !(maxMultiplier >= 0 && maxMultiplier <= ClusterConfig.MAX_MULTIPLIER_LIMIT)) {
      throw new IllegalArgumentException("pools[" + name
          + "].maxMultiplier must be between 0 and 100 (0 disables the cap), got " + maxMultiplier);
    }
    for (Integer percent : new Integer[] {deadbandGrowPercent, deadbandShrinkPercent}) {
      if (percent != null && (percent < 0 || percent > 100)) {
        throw new IllegalArgumentException(
            "pools[" + name + "].deadband must be a percent from 0 to 100, got " + percent);
      }
    }
    for (Duration d : new Duration[] {debouncePeriod, maxDebounceDelay}) {
      if (d != null && d.isNegative()) {
        throw new IllegalArgumentException("pools[" + name + "]: durations must not be negative");
      }
    }
  }

  /** A pool with only a selector: every knob the cluster's. */
  public static NodePool named(String name, LabelSelector nodeSelector) {
    return new NodePool(name, nodeSelector, null, null, null, null, null, null);
  }

  public boolean matches(Map<String, String> nodeLabels) {
    return nodeSelector.matches(nodeLabels);
  }

  public NodePool withMaxMultiplier(Double value) {
    return new NodePool(name, nodeSelector, minBurstFloorMilli, value, deadbandGrowPercent,
        deadbandShrinkPercent, debouncePeriod, maxDebounceDelay);
  }

  public NodePool withMinBurstFloorMilli(Long value) {
    return new NodePool(name, nodeSelector, value, maxMultiplier, deadbandGrowPercent,
        deadbandShrinkPercent, debouncePeriod, maxDebounceDelay);
  }

  public NodePool withDeadbands(Integer grow, Integer shrink) {
    return new NodePool(name, nodeSelector, minBurstFloorMilli, maxMultiplier, grow, shrink,
        debouncePeriod, maxDebounceDelay);
  }

  public NodePool withDebounce(Duration period, Duration maxDelay) {
    return new NodePool(name, nodeSelector, minBurstFloorMilli, maxMultiplier, deadbandGrowPercent,
        deadbandShrinkPercent, period, maxDelay);
  }
}
