package dev.kubeheadroom.actuator;

import dev.kubeheadroom.ops.PodEvents;
import dev.kubeheadroom.projection.CpuQuantity;
import dev.kubeheadroom.schemas.HeadroomKeys;
import dev.kubeheadroom.schemas.OutcomeResult;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.util.Locale;
import java.util.Optional;

/**
 * {@code events.k8s.io/v1} Events on the pod (docs/design/headroom-design.txt §8.1): {@code CPULimitAdjusted} (Normal) for
 * an applied or dry-run change, {@code ResizeForbidden} (Warning) for quota-denied, {@code
 * ResizeRefused} (Warning) for conflict and error (a LimitRange, a validating policy, a 422), once
 * per refusal episode ({@link RefusalEpisodes}): the topology retries such a pod after a growing
 * backoff, and each retry would otherwise add a Warning. Other results write no event: {@code
 * ResizeInfeasible} is ingest's, the only stage that sees the kubelet's answer in pod status. The Event itself is built by {@link PodEvents}; a failed write is logged
 * and reported to the caller, never fatal.
 */
final class EventRecorder {
  static final String REPORTING_CONTROLLER = HeadroomKeys.GROUP + "/actuator";
  static final String ACTION = "Resize";
  static final String ADJUSTED = "CPULimitAdjusted";
  static final String FORBIDDEN = "ResizeForbidden";
  static final String REFUSED = "ResizeRefused";

  private final PodEvents events;
  private final RefusalEpisodes episodes = new RefusalEpisodes();

  EventRecorder(KubernetesClient client, Clock clock, String instance) {
    this.events = new PodEvents(client, clock, REPORTING_CONTROLLER, instance);
  }

  /** What to write for one outcome: reason, type and note; empty when the result has no event. */
  record Content(String reason, String type, String note) {}

  static Optional<Content> content(PodWork work, OutcomeResult result, String message) {
    String change = fromTo(work);
    String context = String.format(Locale.ROOT, "(node factor %.2f, slack %s/%s cores)",
        work.stats().factor(), CpuQuantity.formatCores(work.stats().slackMilli()),
        CpuQuantity.formatCores(work.stats().allocatableMilli()));
    return switch (result) {
      case APPLIED -> Optional.of(new Content(ADJUSTED, "Normal", change + " " + context));
      case DRY_RUN -> Optional.of(new Content(ADJUSTED, "Normal", "(dry-run) would adjust " + change + " " + context));
      case QUOTA_DENIED -> Optional.of(new Content(FORBIDDEN, "Warning",
          "resize " + change + " forbidden: " + message));
      case CONFLICT, ERROR -> Optional.of(new Content(REFUSED, "Warning",
          "resize " + change + " refused: " + message + " (retried after a growing backoff)"));
      // the kubelet reports deferred / infeasible in pod status, not here (ingest's event)
      // rejected: the decision was not for this pod to take (e.g. kube-system); say nothing there
      case DEFERRED, INFEASIBLE, GONE, REJECTED -> Optional.empty();
    };
  }

  /** {@code 1500m → 3000m}; a pod without a limit before shows {@code none}. */
  static String fromTo(PodWork work) {
    long from = work.change().fromMilli();
    return (from == 0 ? "none" : CpuQuantity.formatMilli(from)) + " → " + CpuQuantity.formatMilli(work.change().targetMilli());
  }

  /** True when an event was written or none was due; false when the write failed. */
  boolean record(PodWork work, OutcomeResult result, String message) {
    if (result == OutcomeResult.APPLIED || result == OutcomeResult.GONE) {
      episodes.close(work.uid());
    }
    Optional<Content> content = content(work, result, message);
    if (content.isEmpty()) {
      return true;
    }
    Content c = content.get();
    boolean refused = REFUSED.equals(c.reason());
    if (refused && !episodes.opens(work.uid())) {
      return true; // this episode's Warning is written
    }
    boolean written = events.write(new PodEvents.PodEvent(work.change().namespace(), work.change().name(),
        work.uid(), c.type(), c.reason(), ACTION, c.note()));
    if (refused && !written) {
      episodes.close(work.uid());
    }
    return written;
  }
}
