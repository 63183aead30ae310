package dev.kubeheadroom.installed;

import static org.awaitility.Awaitility.await;

import dev.kubeheadroom.kubereal.CpuCgroup;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongPredicate;

/**
 * One resize Headroom made on the real node and when each layer showed it: the topology's
 * decision (its record's timestamp on the decisions topic), the API server's 200 to the
 * actuator's resize (the audit log), the kubelet's container status ({@code resources.limits.cpu})
 * and the container's CFS quota in its cgroup.
 *
 * @param fromMilli the limit the API showed before
 * @param toMilli the limit every layer shows after
 */
record KubeletResizeTrace(String step, long fromMilli, long toMilli, Instant trigger, Instant decision, Instant api200,
    Instant status, Instant cgroup, CpuCgroup.Quota quota) {

  private static final Duration WITHIN = Duration.ofSeconds(120);

  /**
   * Waits, from {@code trigger} on, until the API's limit of {@code ns/pod}, the kubelet's status
   * and the cgroup agree on a limit that passes {@code wanted}, noting when each first showed it.
   */
  static KubeletResizeTrace trace(String step, Cluster cluster, String bootstrapServers, CpuCgroup cgroup, String ns,
      String pod, Instant trigger, LongPredicate wanted) {
    long from = limitMilli(cluster.pod(ns, pod).orElseThrow());
    Map<Long, Instant> statusSeen = new HashMap<>();
    Map<Long, Instant> cgroupSeen = new HashMap<>();
    long to = settle(step, cluster, cgroup, ns, pod, wanted, statusSeen, cgroupSeen);
    Instant decision = await("the decision for " + to + "m").atMost(WITHIN).until(() -> DecisionLog
        .read(bootstrapServers, "headroom.decisions").stream()
        .filter(c -> !c.dryRun() && c.pod().equals(ns + "/" + pod) && c.targetMilli() == to
            && !c.written().isBefore(trigger.minusMillis(50)))
        .map(DecisionLog.Change::written).findFirst(), java.util.Optional::isPresent).orElseThrow();
    Instant api = await("the resize's 200 in the audit log").atMost(WITHIN).until(() -> cluster.calls().stream()
        .filter(c -> c.code() == 200 && c.isResizeOf(ns, pod) && !c.at().isBefore(decision))
        .map(ApiCall::at).findFirst(), java.util.Optional::isPresent).orElseThrow();
    return new KubeletResizeTrace(step, from, to, trigger, decision, api, statusSeen.get(to), cgroupSeen.get(to),
        cgroup.quota());
  }

  /** Waits until the API's limit, the kubelet's status and the cgroup agree on a limit that passes; returns it. */
  static long settle(String step, Cluster cluster, CpuCgroup cgroup, String ns, String pod, LongPredicate wanted) {
    return settle(step, cluster, cgroup, ns, pod, wanted, new HashMap<>(), new HashMap<>());
  }

  /** As above, noting when the status and the cgroup first showed each value. */
  private static long settle(String step, Cluster cluster, CpuCgroup cgroup, String ns, String pod,
      LongPredicate wanted, Map<Long, Instant> statusSeen, Map<Long, Instant> cgroupSeen) {
    long[] next = {0};
    return await(step).atMost(WITHIN).pollInterval(Duration.ofMillis(5)).until(() -> {
      if (System.nanoTime() < next[0]) {
        cgroupSeen.putIfAbsent(cgroup.quota().millicores(), Instant.now());
        return -1L; // the cgroup file is cheap to read; the API every 30 ms
      }
      next[0] = System.nanoTime() + 30_000_000;
      Pod p = cluster.pod(ns, pod).orElseThrow();
      long shown = statusLimitMilli(p);
      statusSeen.putIfAbsent(shown, Instant.now());
      long quota = cgroup.quota().millicores(); // read once: what is checked is what is noted
      cgroupSeen.putIfAbsent(quota, Instant.now());
      long spec = limitMilli(p);
      return spec == shown && quota == spec && wanted.test(spec) ? spec : -1L;
    }, v -> v >= 0);
  }

  long decisionToApiMillis() {
    return Duration.between(decision, api200).toMillis();
  }

  long apiToStatusMillis() {
    return Duration.between(api200, status).toMillis();
  }

  long apiToCgroupMillis() {
    return Duration.between(api200, cgroup).toMillis();
  }

  @Override
  public String toString() {
    return "%s: limit %dm -> %dm, cfs quota %d/%d us; from the trigger: decision %d ms, API 200 %d ms, kubelet status %d ms, cgroup %d ms"
        .formatted(step, fromMilli, toMilli, quota.quotaMicros(), quota.periodMicros(), since(decision),
            since(api200), since(status), since(cgroup));
  }

  private long since(Instant t) {
    return Duration.between(trigger, t).toMillis();
  }

  /** The median of {@code values} (the lower middle of an even count). */
  static long median(List<Long> values) {
    List<Long> sorted = values.stream().sorted().toList();
    return sorted.get((sorted.size() - 1) / 2);
  }

  static long limitMilli(Pod p) {
    Quantity q = p.getSpec().getContainers().get(0).getResources().getLimits().get("cpu");
    return q == null ? 0 : q.getNumericalAmount().movePointRight(3).longValueExact();
  }

  static long statusLimitMilli(Pod p) {
    List<ContainerStatus> statuses = p.getStatus() == null ? null : p.getStatus().getContainerStatuses();
    if (statuses == null || statuses.isEmpty() || statuses.get(0).getResources() == null
        || statuses.get(0).getResources().getLimits() == null) {
      return 0;
    }
    Quantity q = statuses.get(0).getResources().getLimits().get("cpu");
    return q == null ? 0 : q.getNumericalAmount().movePointRight(3).longValueExact();
  }
}
