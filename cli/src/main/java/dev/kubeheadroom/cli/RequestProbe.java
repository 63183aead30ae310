package dev.kubeheadroom.cli;

import dev.kubeheadroom.cli.throttling.RequestWhatIf;
import dev.kubeheadroom.cli.throttling.WhatIfReport;
import dev.kubeheadroom.policy.ContainerInput;
import dev.kubeheadroom.policy.PodPlanner;
import dev.kubeheadroom.replay.Explanation;
import dev.kubeheadroom.schemas.ContainerSnapshot;
import dev.kubeheadroom.schemas.PodSnapshot;
import dev.kubeheadroom.topology.booking.NodeBooking;
import dev.kubeheadroom.topology.booking.PodEntry;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Headroom's target for the pod at another request, under its node's booking now: the pod's
 * limit-bearing containers' requests scaled to that total (split pro rata, as a limit is split),
 * every other pod as booked, the node's config, pool and tenancy as {@code explain} applies them.
 */
final class RequestProbe {
  private RequestProbe() {}

  /** The request what-if for {@code e}'s pod, or null when Headroom does not manage it. */
  static RequestWhatIf of(Explanation e, WhatIfReport report, NodeBooking booking,
      Function<NodeBooking, Explanation> explainer) {
    if (e.notManagedBecause() != null || e.trace() == null || !booking.pods().containsKey(e.pod().uid())) {
      return null;
    }
    PodSnapshot pod = e.pod();
    List<ContainerSnapshot> bearing = pod.limitBearingContainers();
    List<ContainerInput> inputs = bearing.stream()
        .map(c -> new ContainerInput(c.name(), c.cpuRequestMilli(), c.cpuLimitMilli(), c.memoryGuaranteed())).toList();
    long request = ContainerInput.podRequestMilli(inputs);
    long fits = request + Math.max(0, e.slackMilli()); // a larger request would not fit the node
    return RequestWhatIf.of(request, report.needs(pod), fits, r -> {
      Explanation x = explainer.apply(withRequest(booking, pod, PodPlanner.split(r, inputs)));
      return x.notManagedBecause() != null || x.trace() == null ? 0 : x.trace().targetMilli();
    });
  }

  /** The booking with the pod's limit-bearing containers at {@code requests} (spec order), fresh: no backoff. */
  private static NodeBooking withRequest(NodeBooking booking, PodSnapshot pod, long[] requests) {
    List<ContainerSnapshot> containers = new ArrayList<>();
    int i = 0;
    for (ContainerSnapshot c : pod.containers()) {
      if (c.limitBearing()) {
        long r = requests[i++];
        // The API server keeps request <= limit: a limit below the new request rises with it.
        long limit = c.cpuLimitMilli() == 0 ? 0 : Math.max(c.cpuLimitMilli(), r);
        containers.add(new ContainerSnapshot(c.name(), c.kind(), r, limit, c.memoryGuaranteed(), c.cpuResizeRestarts()));
      } else {
        containers.add(c);
      }
    }
    TreeMap<String, PodEntry> pods = new TreeMap<>(booking.pods());
    pods.put(pod.uid(), new PodEntry(pod.withContainers(containers), null, null, false, 0));
    return new NodeBooking(booking.node(), booking.snapshot(), pods);
  }
}
