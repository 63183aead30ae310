package dev.kubeheadroom.cli.throttling;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * One container's what-if: how throttled it was, what it used, the limit that would have covered
 * it, next to the limit it has.
 *
 * @param throttledRatio throttled CFS periods / all CFS periods over the window (0..1); null
 *     without CFS series (no limit)
 * @param usage the usage rate's quantiles; null without usage data
 * @param suggestedMilli the p99 usage rounded up to the policy's quantum ({@link ThrottleWhatIf});
 *     null without usage data
 * @param lowerBound the container was throttled, so its usage was cut at the limit: its demand
 *     was higher than the suggestion shows
 * @param limitMilli the container's CPU limit now (what Headroom gave it, for a managed pod); null
 *     when it has none
 * @param targetMilli Headroom's target for the container now (the pod's target split by request);
 *     null for a pod Headroom does not manage
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ContainerWhatIf(String container, Double throttledRatio, Usage usage, Long suggestedMilli,
    boolean lowerBound, Long limitMilli, Long targetMilli, String verdict) {}
