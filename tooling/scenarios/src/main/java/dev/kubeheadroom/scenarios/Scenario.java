package dev.kubeheadroom.scenarios;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

/**
 * A generated scenario: its watch events in time order, and what happened while placing pods.
 *
 * @param events every watch event, sorted by time (namespaces, config and nodes first)
 * @param summary counts of the generation
 */
public record Scenario(List<ScenarioEvent> events, Summary summary) {
  public Scenario {
    events = List.copyOf(events);
  }

  /**
   * @param nodes nodes in the scenario
   * @param candidatePods pods offered to the scheduler
   * @param placedPods pods bound to a node (each gets ADDED, a bind MODIFIED and DELETED)
   * @param unplacedPods pods that fit on no node at their bind time (left out of the log)
   * @param skippedPods input pods left out for another reason (the trace never scheduled them)
   * @param managedPods placed pods in the managed namespace
   * @param peakBookedFraction the highest share of all nodes' CPU booked at once
   */
  public record Summary(int nodes, int candidatePods, int placedPods, int unplacedPods,
      int skippedPods, int managedPods, double peakBookedFraction) {}

  /**
   * The events before {@code cutoff}, as a watch captured over that window would show them: pods
   * still running then stay running (the summary still counts the whole generation).
   */
  public Scenario before(Instant cutoff) {
    return new Scenario(events.stream().filter(e -> e.at().isBefore(cutoff)).toList(), summary);
  }

  /** Writes the watch log to {@code file}; returns the line count. */
  public long write(Path file) {
    return WatchLogWriter.write(file, events);
  }
}
