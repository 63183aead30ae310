package dev.kubeheadroom.webhook;

import dev.kubeheadroom.schemas.Ineligibility;
import java.util.List;
import java.util.Objects;

/** What {@link BirthLimit} decided for one pod. */
public sealed interface BirthDecision {

  /** Seed these limits with this patch (never empty). */
  record Seed(List<SeededLimit> limits, List<PatchOp> patch) implements BirthDecision {
    public Seed {
      limits = List.copyOf(limits);
      patch = List.copyOf(patch);
      if (limits.isEmpty() || patch.isEmpty()) {
        throw new IllegalArgumentException("a seed sets at least one limit");
      }
    }
  }

  /**
   * Admit the pod as it is, because of {@code reason}: an eligibility gate's or the webhook's own
   * ({@link AllowReason}) wire name, the metric's {@code reason} tag.
   */
  record Unchanged(String reason) implements BirthDecision {
    public Unchanged {
      Objects.requireNonNull(reason, "reason");
    }

    /** A pod an eligibility gate keeps from being managed. */
    static Unchanged because(Ineligibility gate) {
      return new Unchanged(gate.wireName());
    }

    /** A pod the webhook leaves alone for a reason of its own. */
    static Unchanged because(AllowReason reason) {
      return new Unchanged(reason.wireName());
    }
  }

  /**
   * One container's seeded CPU limit.
   *
   * @param container container name
   * @param sidecar true for a restartable init container ({@code restartPolicy: Always})
   * @param requestMilli its CPU request
   * @param limitMilli the limit set, always above the request
   */
  record SeededLimit(String container, boolean sidecar, long requestMilli, long limitMilli) {}
}
