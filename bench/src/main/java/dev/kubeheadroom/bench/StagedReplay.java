package dev.kubeheadroom.bench;

import dev.kubeheadroom.projection.LastGoodConfig;
import dev.kubeheadroom.projection.NamespaceProjection;
import dev.kubeheadroom.projection.NodeProjection;
import dev.kubeheadroom.projection.PodProjection;
import dev.kubeheadroom.projection.WatchEvent;
import dev.kubeheadroom.projection.WatchLogItem;
import dev.kubeheadroom.projection.WatchLogReader;
import dev.kubeheadroom.replay.ClusterReport;
import dev.kubeheadroom.replay.DriverHarness;
import dev.kubeheadroom.replay.ReplayEngine;
import dev.kubeheadroom.replay.Simulation;
import dev.kubeheadroom.replay.TopologyHarness;
import dev.kubeheadroom.schemas.ClusterConfig;
import dev.kubeheadroom.schemas.ContainerChange;
import dev.kubeheadroom.schemas.NodeDecision;
import dev.kubeheadroom.schemas.NodeSnapshot;
import dev.kubeheadroom.schemas.PodChange;
import dev.kubeheadroom.schemas.PodRemoved;
import dev.kubeheadroom.schemas.PodSnapshot;
import dev.kubeheadroom.schemas.Topics;
import dev.kubeheadroom.topology.TopologyListener;
import dev.kubeheadroom.topology.TopologySettings;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * {@code simulate}'s work split into cumulative stages, so a benchmark can say where the time
 * goes: each stage does everything the previous one did plus one more step.
 *
 * <ol>
 *   <li>{@link Stage#READ}: {@link WatchLogReader} only (JSON tokenizing, tree, fabric8 binding);
 *   <li>{@link Stage#PROJECT}: + projection of every object into records and the de-duplication
 *       {@code simulate} does (a pod is only sent when its booking changed);
 *   <li>{@link Stage#TOPOLOGY}: + the production topology in {@link ReplayEngine} (its processors
 *       run inline: stores, debounce, policy), decisions drained and dropped;
 *   <li>{@link Stage#FULL}: the real {@link Simulation}: + the simulated actuator applying each
 *       decision and feeding the pod back, and the settle rounds at the end.
 *   <li>{@link Stage#FULL_TEST_DRIVER}: the same, with the topology under {@code
 *       TopologyTestDriver} (serialized, cached, changelogged stores; a commit per record): the
 *       yardstick inline replay is held to, and what {@code simulate} ran on before it.
 * </ol>
 *
 * Stages 2–3 re-implement {@code ClusterModel}'s projection loop for Pods, Nodes, Namespaces and
 * HeadroomConfig only (what generated scenarios contain); stage 4 is the production code.
 */
final class StagedReplay {
  enum Stage { READ, PROJECT, TOPOLOGY, FULL, FULL_TEST_DRIVER }

  /** @param events well-formed events read; decisions/patches only for TOPOLOGY and FULL */
  record Result(long events, long decisions, long patches, long nanos) {
    double eventsPerSecond() {
      return events * 1e9 / nanos;
    }
  }

  private StagedReplay() {}

  static Result run(Path log, Stage stage) {
    long start = System.nanoTime();
    try (Stream<WatchLogItem> items = WatchLogReader.read(log)) {
      Iterator<WatchLogItem> it = items.iterator();
      Result r = switch (stage) {
        case READ -> read(it);
        case PROJECT, TOPOLOGY -> project(it, stage == Stage.TOPOLOGY);
        case FULL, FULL_TEST_DRIVER -> {
          TopologyHarness.Factory kind = stage == Stage.FULL ? TopologyHarness.Factory.INLINE : DriverHarness.FACTORY;
          ClusterReport report = new Simulation(ClusterConfig.DEFAULTS, Simulation.Observer.NONE, kind).run(it);
          yield new Result(report.summary().events(), report.summary().decisions(), report.summary().patches(), 0);
        }
      };
      return new Result(r.events(), r.decisions(), r.patches(), System.nanoTime() - start);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Result read(Iterator<WatchLogItem> it) {
    long events = 0;
    while (it.hasNext()) {
      if (it.next() instanceof WatchEvent) {
        events++;
      }
    }
    return new Result(events, 0, 0, 0);
  }

  private static Result project(Iterator<WatchLogItem> it, boolean topology) {
    Loop loop = new Loop(topology, false);
    while (it.hasNext()) {
      if (it.next() instanceof WatchEvent e) {
        loop.apply(e);
      }
    }
    loop.close();
    return new Result(loop.events, loop.decisions, 0, 0);
  }

  /**
   * After a replay with feedback has settled, sends every node and live pod snapshot again, as it
   * stands, straight to the topology (bypassing the de-duplication) and counts the decisions that
   * follow: nothing moved, so there should be none.
   *
   * @return {@code [decisions while replaying and settling, pods re-sent, decisions after re-sending]}
   */
  static long[] decisionsWhenNothingMoved(Path log) {
    try (Stream<WatchLogItem> items = WatchLogReader.read(log)) {
      Loop loop = new Loop(true, true);
      items.forEach(i -> {
        if (i instanceof WatchEvent e) {
          loop.apply(e);
        }
      });
      loop.settle();
      long before = loop.decisions;
      long resent = loop.resendEverything();
      loop.settle();
      long after = loop.decisions - before;
      loop.close();
      return new long[] {before, resent, after};
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The projection loop of {@code simulate} (Pods, Nodes, Namespaces, HeadroomConfig). */
  private static final class Loop {
    private final boolean topology;
    private final boolean feedback;
    private final Map<String, PodSnapshot> pods = new HashMap<>();
    private final Map<String, NodeSnapshot> nodes = new HashMap<>();
    private ReplayEngine engine;
    private LastGoodConfig config = LastGoodConfig.INITIAL;
    long events;
    long decisions;

    Loop(boolean topology, boolean feedback) {
      this.topology = topology;
      this.feedback = feedback;
    }

    void apply(WatchEvent e) {
      events++;
      if (topology) {
        if (engine == null) {
          engine = new ReplayEngine(new TopologySettings(Topics.defaults(), TopologySettings.DEFAULT_TICK,
              c -> c.withDryRun(false)), TopologyListener.NONE, e.at());
          engine.config(ClusterConfig.DEFAULTS);
        }
        engine.advanceTo(e.at());
        drain();
      }
      boolean deleted = e.type() == WatchEvent.Type.DELETED;
      if (e.object() instanceof Pod pod) {
        String uid = pod.getMetadata().getUid();
        if (deleted) {
          PodSnapshot old = pods.remove(uid);
          if (old != null) {
            send(new PodRemoved(uid, old.namespace(), old.name(), old.node()));
          }
          return;
        }
        PodSnapshot snapshot = PodProjection.project(pod, false).orElse(null);
        if (snapshot == null) {
          return;
        }
        PodSnapshot old = pods.get(uid);
        if (old != null && feedback) {
          // Headroom owns the limits it set (generated scenarios never change a request)
          snapshot = snapshot.withContainers(old.containers());
        }
        if (snapshot.terminal()) {
          if (pods.remove(uid) != null) {
            send(snapshot);
          }
          return;
        }
        pods.put(uid, snapshot);
        if (!snapshot.sameBooking(old)) {
          send(snapshot);
        }
      } else if (e.object() instanceof Node node) {
        NodeSnapshot snapshot = NodeProjection.project(node);
        if (!snapshot.equals(nodes.put(node.getMetadata().getName(), snapshot))) {
          send(snapshot);
        }
      } else if (e.object() instanceof Namespace ns) {
        if (topology) {
          engine.namespace(ns.getMetadata().getName(), deleted ? null : NamespaceProjection.project(ns, List.of()));
        }
      } else if (e.object() instanceof GenericKubernetesResource g && "HeadroomConfig".equals(g.getKind())) {
        config = deleted ? config.deleted() : config.offer(g);
        if (topology) {
          engine.config(config.config());
        }
      }
    }

    private void send(dev.kubeheadroom.schemas.NodeEvent event) {
      if (topology) {
        engine.send(event);
      }
    }

    private void drain() {
      List<NodeDecision> ds = engine.drainDecisions();
      decisions += ds.size();
      if (!feedback) {
        return;
      }
      for (NodeDecision d : ds) {
        for (PodChange change : d.changes()) {
          PodSnapshot pod = pods.get(change.uid());
          if (pod == null) {
            continue;
          }
          Map<String, Long> to = new HashMap<>();
          for (ContainerChange t : change.containers()) {
            to.put(t.name(), t.toMilli());
          }
          PodSnapshot applied = pod.resized(to);
          pods.put(change.uid(), applied);
          engine.send(applied);
        }
      }
    }

    /** Runs the clock on until two whole max-delay windows in a row decide nothing. */
    void settle() {
      ClusterConfig c = engine.storedConfig();
      Duration round = c.maxDebounceDelay().plus(c.debouncePeriod()).plus(engine.tick());
      int quiet = 0;
      for (int i = 0; i < 1000 && quiet < 2; i++) {
        long before = decisions;
        engine.advance(round);
        drain();
        quiet = decisions == before ? quiet + 1 : 0;
      }
    }

    long resendEverything() {
      nodes.values().forEach(engine::send);
      pods.values().forEach(engine::send);
      return pods.size();
    }

    void close() {
      if (engine != null) {
        engine.close();
      }
    }
  }
}
