package dev.kubeheadroom.bench;

import dev.kubeheadroom.projection.ClusterProjector;
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
import dev.kubeheadroom.schemas.NamespaceInfo;
import dev.kubeheadroom.schemas.NodeDecision;
import dev.kubeheadroom.schemas.NodeEvent;
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
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
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
 *   <li>{@link Stage#READ}: {@link WatchLogReader} only, as {@code simulate} reads (the log's bytes
 *       in blocks; plain pods and nodes bound from the bytes, with only the projected fields);
 *   <li>{@link Stage#READ_TEXT}: the items read as the first streaming reader did (a {@code String}
 *       per line, Jackson's tokenizer): the yardstick for READ, not part of the cumulative chain;
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
 * Stages 2–3 run the production {@link ClusterProjector} on Pods, Nodes, Namespaces and
 * HeadroomConfig (what generated scenarios contain); stage 4 is the production {@code simulate}.
 */
final class StagedReplay {
  enum Stage { READ, READ_TEXT, PROJECT, TOPOLOGY, FULL, FULL_TEST_DRIVER }

  /**
   * @param events well-formed events read; decisions/patches only for TOPOLOGY and FULL
   * @param cpuNanos CPU time of the whole process over the run (every thread, GC and JIT included):
   *     what a shared machine's load distorts least
   */
  record Result(long events, long decisions, long patches, long nanos, long cpuNanos, ReaderCost reader) {
    Result(long events, long decisions, long patches, long nanos, long cpuNanos) {
      this(events, decisions, patches, nanos, cpuNanos, null);
    }

    double eventsPerSecond() {
      return events * 1e9 / nanos;
    }

    /** CPU seconds per 100,000 events. */
    double cpuSecondsPer100k() {
      return cpuNanos / 1e9 * 100_000 / events;
    }
  }

  /**
   * READ only: what the reading thread itself spent (it is the calling thread), per line read:
   * the reader's own cost, free of the JIT and GC threads the process figure includes.
   */
  record ReaderCost(long lines, long threadCpuNanos, long allocatedBytes) {
    double cpuMicrosPerLine() {
      return threadCpuNanos / 1e3 / lines;
    }

    double bytesPerLine() {
      return (double) allocatedBytes / lines;
    }
  }

  private StagedReplay() {}

  static Result run(Path log, Stage stage) {
    long cpu = ProcessCpu.nanos();
    long threadCpu = ThreadCost.cpuNanos();
    long allocated = ThreadCost.allocatedBytes();
    long start = System.nanoTime();
    try (Stream<WatchLogItem> items = stage == Stage.READ_TEXT
        ? WatchLogReader.stream(WatchLogReader.forProjection(Files.newBufferedReader(log, StandardCharsets.UTF_8)))
        : WatchLogReader.readForProjection(log)) {
      Iterator<WatchLogItem> it = items.iterator();
      Result r = switch (stage) {
        case READ, READ_TEXT -> read(it);
        case PROJECT, TOPOLOGY -> project(it, stage == Stage.TOPOLOGY);
        case FULL, FULL_TEST_DRIVER -> {
          TopologyHarness.Factory kind = stage == Stage.FULL ? TopologyHarness.Factory.INLINE : DriverHarness.FACTORY;
          ClusterReport report = new Simulation(ClusterConfig.DEFAULTS, Simulation.Observer.NONE, kind).run(it);
          yield new Result(report.summary().events(), report.summary().decisions(), report.summary().patches(), 0, 0);
        }
      };
      long wall = System.nanoTime() - start;
      ReaderCost reader = stage == Stage.READ || stage == Stage.READ_TEXT
          ? new ReaderCost(r.events(), ThreadCost.cpuNanos() - threadCpu, ThreadCost.allocatedBytes() - allocated)
          : null;
      return new Result(r.events(), r.decisions(), r.patches(), wall, ProcessCpu.nanos() - cpu, reader);
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
    return new Result(events, 0, 0, 0, 0);
  }

  private static Result project(Iterator<WatchLogItem> it, boolean topology) {
    Loop loop = new Loop(topology, false);
    while (it.hasNext()) {
      if (it.next() instanceof WatchEvent e) {
        loop.apply(e);
      }
    }
    loop.close();
    return new Result(loop.events, loop.decisions, 0, 0, 0);
  }

  /**
   * After a replay with feedback has settled, sends every node and live pod snapshot again, as it
   * stands, straight to the topology (bypassing the de-duplication) and counts the decisions that
   * follow: nothing moved, so there should be none.
   *
   * @return {@code [decisions while replaying and settling, pods re-sent, decisions after re-sending]}
   */
  static long[] decisionsWhenNothingMoved(Path log) {
    try (Stream<WatchLogItem> items = WatchLogReader.readForProjection(log)) {
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

  /** {@code simulate}'s loop: the {@link ClusterProjector}, optionally the topology and feedback. */
  private static final class Loop {
    private final boolean topology;
    private final boolean feedback;
    private final Map<String, Map<String, Long>> owned = new HashMap<>();
    private final ClusterProjector projector;
    private ReplayEngine engine;
    long events;
    long decisions;

    Loop(boolean topology, boolean feedback) {
      this.topology = topology;
      this.feedback = feedback;
      this.projector = new ClusterProjector(new ClusterProjector.Output() {
        @Override
        public void node(String node, NodeEvent event) {
          send(event);
        }

        @Override
        public void pod(PodSnapshot snapshot, PodSnapshot previous, Pod source) {
          send(snapshot);
        }

        @Override
        public void podRemoved(PodRemoved removed, PodSnapshot previous) {
          send(removed);
        }

        @Override
        public void namespace(String name, NamespaceInfo info) {
          if (topology) {
            engine.namespace(name, info);
          }
        }

        @Override
        public void config(ClusterConfig config) {
          if (topology) {
            engine.config(config);
          }
        }
      }, owned::get);
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
        if (deleted) {
          owned.remove(pod.getMetadata().getUid());
          projector.podDeleted(pod.getMetadata().getUid());
        } else {
          projector.pod(pod);
        }
      } else if (e.object() instanceof Node node) {
        if (deleted) {
          projector.nodeDeleted(node);
        } else {
          projector.node(node);
        }
      } else if (e.object() instanceof Namespace ns) {
        if (deleted) {
          projector.namespaceDeleted(ns.getMetadata().getName());
        } else {
          projector.namespace(ns);
        }
      } else if (e.object() instanceof GenericKubernetesResource g && "HeadroomConfig".equals(g.getKind())) {
        if (deleted) {
          projector.configDeleted();
        } else {
          projector.config(g);
        }
      }
    }

    private void send(NodeEvent event) {
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
          PodSnapshot pod = projector.publishedPod(change.uid());
          if (pod == null || pod.terminal()) {
            continue;
          }
          Map<String, Long> to = owned.computeIfAbsent(change.uid(), k -> new HashMap<>());
          for (ContainerChange t : change.containers()) {
            to.put(t.name(), t.toMilli());
          }
          projector.resized(change.uid(), to);
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
      projector.publishedNodes().forEach(engine::send);
      long resent = 0;
      for (PodSnapshot pod : projector.publishedPods()) {
        if (!pod.terminal()) {
          engine.send(pod);
          resent++;
        }
      }
      return resent;
    }

    void close() {
      if (engine != null) {
        engine.close();
      }
    }
  }
}
