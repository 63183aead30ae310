package dev.kubeheadroom.webhook;

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

  /** Admit the pod as it is, because of {@code reason}. */
  record Unchanged(AllowReason reason) implements BirthDecision {
    public Unchanged {
      Objects.requireNonNull(reason, "reason");
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
