package dev.kubeheadroom.scenarios;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * Places pods on nodes and turns the result into watch events. Placement follows the scheduler's
 * LeastAllocated scoring on CPU: at its bind time a pod goes to the node, among those where both
 * its CPU and memory requests still fit, whose booked CPU share after placing it is lowest (ties:
 * the earlier node). Pods that ended at or before that time have freed their requests. A pod that
 * fits nowhere is left out and counted. Pure and deterministic.
 */
final class ScenarioAssembler {
  static final String MANAGED_NAMESPACE = "team-managed";
  static final String UNMANAGED_NAMESPACE = "team-unmanaged";

  /** Stages of a pod at one instant sort ends first, so a freed node is free for a bind then. */
  private static final int END_PHASE = 0;
  private static final int DELETE = 1;
  private static final int ADD = 2;
  private static final int BIND = 3;

  private record Placed(PodPlan pod, int node) {}

  private record Step(long atMs, int stage, int order, Placed placed) {}

  private ScenarioAssembler() {}

  static Scenario assemble(long seed, Instant start, boolean withConfig, List<NodePlan> nodes,
      List<PodPlan> pods, int skippedPods) {
    long[] cpuFree = new long[nodes.size()];
    long[] memFree = new long[nodes.size()];
    long totalCpu = 0;
    for (int i = 0; i < nodes.size(); i++) {
      cpuFree[i] = nodes.get(i).cpuMilli();
      memFree[i] = nodes.get(i).memoryMib();
      totalCpu += cpuFree[i];
    }
    List<PodPlan> byBind = new ArrayList<>(pods);
    byBind.sort(Comparator.comparingLong(PodPlan::bindMs)); // stable: input order breaks ties
    PriorityQueue<Placed> running = new PriorityQueue<>(
        Comparator.comparingLong((Placed p) -> p.pod().endMs()).thenComparingInt(p -> p.node()));
    List<Placed> placed = new ArrayList<>();
    long booked = 0;
    long peakBooked = 0;
    int unplaced = 0;
    int managed = 0;
    for (PodPlan pod : byBind) {
      while (!running.isEmpty() && running.peek().pod().endMs() <= pod.bindMs()) {
        Placed done = running.poll();
        cpuFree[done.node()] += done.pod().cpuMilli();
        memFree[done.node()] += done.pod().memoryMib();
        booked -= done.pod().cpuMilli();
      }
      int best = leastAllocated(nodes, cpuFree, memFree, pod);
      if (best < 0) {
        unplaced++;
        continue;
      }
      cpuFree[best] -= pod.cpuMilli();
      memFree[best] -= pod.memoryMib();
      booked += pod.cpuMilli();
      peakBooked = Math.max(peakBooked, booked);
      Placed p = new Placed(pod, best);
      running.add(p);
      placed.add(p);
      if (pod.managed()) {
        managed++;
      }
    }
    List<ScenarioEvent> events = events(seed, start, withConfig, nodes, placed);
    return new Scenario(events, new Scenario.Summary(nodes.size(), pods.size(), placed.size(),
        unplaced, skippedPods, managed, totalCpu == 0 ? 0 : (double) peakBooked / totalCpu));
  }

  private static int leastAllocated(List<NodePlan> nodes, long[] cpuFree, long[] memFree, PodPlan pod) {
    int best = -1;
    double bestShare = Double.MAX_VALUE;
    for (int i = 0; i < cpuFree.length; i++) {
      if (cpuFree[i] < pod.cpuMilli() || memFree[i] < pod.memoryMib()) {
        continue;
      }
      long cap = nodes.get(i).cpuMilli();
      double share = (double) (cap - cpuFree[i] + pod.cpuMilli()) / cap;
      if (share < bestShare) {
        bestShare = share;
        best = i;
      }
    }
    return best;
  }

  private static List<ScenarioEvent> events(long seed, Instant start, boolean withConfig,
      List<NodePlan> nodes, List<Placed> placed) {
    List<ScenarioEvent> events = new ArrayList<>(nodes.size() + 4 * placed.size() + 3);
    long rv = 1000;
    events.add(new ScenarioEvent(start, ScenarioEvent.Type.ADDED,
        KubeObjects.namespace(seed, MANAGED_NAMESPACE, true, ++rv)));
    events.add(new ScenarioEvent(start, ScenarioEvent.Type.ADDED,
        KubeObjects.namespace(seed, UNMANAGED_NAMESPACE, false, ++rv)));
    if (withConfig) {
      events.add(new ScenarioEvent(start, ScenarioEvent.Type.ADDED, KubeObjects.headroomConfig(seed, false, ++rv)));
    }
    for (NodePlan node : nodes) {
      events.add(new ScenarioEvent(start, ScenarioEvent.Type.ADDED, KubeObjects.node(seed, node, ++rv)));
    }
    List<Step> steps = new ArrayList<>(4 * placed.size());
    for (int i = 0; i < placed.size(); i++) {
      Placed p = placed.get(i);
      steps.add(new Step(p.pod().createdMs(), ADD, i, p));
      steps.add(new Step(p.pod().bindMs(), BIND, i, p));
      if (!"Running".equals(p.pod().endPhase())) {
        steps.add(new Step(p.pod().endMs(), END_PHASE, i, p));
      }
      steps.add(new Step(p.pod().endMs(), DELETE, i, p));
    }
    steps.sort(Comparator.comparingLong(Step::atMs).thenComparingInt(Step::stage).thenComparingInt(Step::order));
    for (Step s : steps) {
      PodPlan pod = s.placed().pod();
      String ns = pod.managed() ? MANAGED_NAMESPACE : UNMANAGED_NAMESPACE;
      String node = nodes.get(s.placed().node()).name();
      Instant created = start.plusMillis(pod.createdMs());
      Instant at = start.plusMillis(s.atMs());
      HasMetadata object;
      ScenarioEvent.Type type;
      switch (s.stage()) {
        case ADD -> {
          type = ScenarioEvent.Type.ADDED;
          object = KubeObjects.pod(seed, ns, pod, created, null, "Pending", ++rv);
        }
        case BIND -> {
          type = ScenarioEvent.Type.MODIFIED;
          object = KubeObjects.pod(seed, ns, pod, created, node, "Running", ++rv);
        }
        case END_PHASE -> {
          type = ScenarioEvent.Type.MODIFIED;
          object = KubeObjects.pod(seed, ns, pod, created, node, pod.endPhase(), ++rv);
        }
        default -> {
          type = ScenarioEvent.Type.DELETED;
          object = KubeObjects.pod(seed, ns, pod, created, node, pod.endPhase(), ++rv);
        }
      }
      events.add(new ScenarioEvent(at, type, object));
    }
    return events;
  }
}
