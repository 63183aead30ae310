package dev.kubeheadroom.ingest;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code status} of the HeadroomConfig {@code cluster} as Headroom writes it (docs/design/config.md; the
 * CRD's status schema). Immutable; {@link #next} derives the status to write from the previous one.
 *
 * @param observedGeneration the spec generation last evaluated (accepted or refused)
 * @param ready the Ready condition: True/Accepted, or False/Refused with the one-line reason
 * @param managedPods Σ over nodes of the managed pods in each node's latest decision
 * @param managedNodes nodes whose latest decision manages at least one pod
 */
public record ConfigStatus(long observedGeneration, Ready ready, long managedPods, long managedNodes) {
  public static final String READY = "Ready";
  public static final String ACCEPTED = "Accepted";
  public static final String REFUSED = "Refused";

  /**
   * The Ready condition. {@code lastTransitionTime} (whole seconds, as the API server keeps it)
   * moves only when {@code status} changes.
   */
  public record Ready(boolean status, String reason, String message, Instant lastTransitionTime) {}

  /**
   * The status to write now.
   *
   * @param generation the generation evaluated
   * @param refusal the one-line refusal; null when that generation was accepted
   * @param previous the status the object holds (null: none), whose transition time is kept
   *     while Ready does not change
   */
  public static ConfigStatus next(long generation, String refusal, long managedPods, long managedNodes,
      ConfigStatus previous, Instant now) {
    boolean accepted = refusal == null;
    Instant transition = previous != null && previous.ready() != null
        && previous.ready().status() == accepted && previous.ready().lastTransitionTime() != null
        ? previous.ready().lastTransitionTime()
        : now.truncatedTo(ChronoUnit.SECONDS);
    Ready ready = accepted
        ? new Ready(true, ACCEPTED, "generation " + generation + " is in force", transition)
        : new Ready(false, REFUSED, refusal, transition);
    return new ConfigStatus(generation, ready, managedPods, managedNodes);
  }

  /** The {@code status} object for a merge patch: the whole of what Headroom owns. */
  public Map<String, Object> toMap() {
    Map<String, Object> condition = new LinkedHashMap<>();
    condition.put("type", READY);
    condition.put("status", ready.status() ? "True" : "False");
    condition.put("observedGeneration", observedGeneration);
    condition.put("lastTransitionTime", ready.lastTransitionTime().toString());
    condition.put("reason", ready.reason());
    condition.put("message", ready.message());
    Map<String, Object> status = new LinkedHashMap<>();
    status.put("observedGeneration", observedGeneration);
    status.put("conditions", List.of(condition));
    status.put("managedPods", managedPods);
    status.put("managedNodes", managedNodes);
    return status;
  }

  /**
   * Reads a stored {@code status} (as {@link #toMap} wrote it, possibly by another replica);
   * null when it is absent or not in that shape (it will simply be written again).
   */
  public static ConfigStatus parse(Object status) {
    if (!(status instanceof Map<?, ?> map) || !(map.get("conditions") instanceof List<?> conditions)) {
      return null;
    }
    try {
      for (Object c : conditions) {
        if (c instanceof Map<?, ?> condition && READY.equals(condition.get("type"))) {
          Ready ready = new Ready("True".equals(condition.get("status")), (String) condition.get("reason"),
              (String) condition.get("message"), Instant.parse((String) condition.get("lastTransitionTime")));
          return new ConfigStatus(number(map.get("observedGeneration")), ready,
              number(map.get("managedPods")), number(map.get("managedNodes")));
        }
      }
    } catch (ClassCastException | NullPointerException | DateTimeParseException e) {
      return null;
    }
    return null;
  }

  private static long number(Object value) {
    return value instanceof Number n ? n.longValue() : -1;
  }
}
