package dev.kubeheadroom.topology.booking;

import dev.kubeheadroom.schemas.NodeDecision;
import java.util.Optional;
import java.util.Set;

/**
 * What applying an event or taking a decision did to a node's booking: the new booking, which
 * pod entries and whether the node entry changed (so only those are written back), whether the
 * node now needs a recomputation, and the decision, if one was taken.
 */
public record Step(
    NodeBooking booking,
    Set<String> touchedPods,
    boolean nodeTouched,
    boolean dirty,
    Optional<NodeDecision> decision) {

  public Step {
    // Set.copyOf copies through a HashSet even an empty or one-element set; most steps touch none
    // or one pod, and a step is made per event and per decision.
    touchedPods = switch (touchedPods.size()) {
      case 0 -> Set.of();
      case 1 -> Set.of(touchedPods.iterator().next());
      default -> Set.copyOf(touchedPods);
    };
  }

  static Step unchanged(NodeBooking booking) {
    return new Step(booking, Set.of(), false, false, Optional.empty());
  }
}
