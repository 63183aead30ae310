package dev.kubeheadroom.scenarios;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * A seeded scenario generator fitted to the shape of the Alibaba openb trace without carrying any
 * of it: identical nodes, Poisson arrivals, and pods whose CPU requests, lifetimes, owners and end
 * phases follow the few parameters below. Same options, same events.
 *
 * <p>Fitted once from {@code openb_pod_list_default.csv} (8,152 pods; the one-off measurement is
 * {@code TraceShapeTool} in this module's tests, run against the trace, which stays outside the
 * repository):
 *
 * <ul>
 *   <li>CPU request: each trace request rounded (on a log scale) to the nearest size of
 *       {@link #REQUEST_SIZES_MILLI}; weights per mille in {@link #REQUEST_WEIGHTS}. 4 and 12
 *       cores are two thirds of all pods.
 *   <li>Memory request: 3,814 MiB per requested core (the trace's median ratio).
 *   <li>Lifetime (scheduling to deletion): log-normal with μ = 6.44, σ = 1.88 over seconds
 *       (median ≈ 630 s, mean ≈ 3.8 h because of the long tail).
 *   <li>Scheduling delay: 2 s (the trace's median; 90% of pods bind within 106 s).
 *   <li>Owner: 42% Job (the trace's best-effort class BE), the rest ReplicaSet.
 *   <li>End phase of scheduled pods: 25.8% Failed, 2.6% Succeeded, the rest deleted Running.
 * </ul>
 *
 * Nodes get 8 GiB of memory per core so that CPU, which Headroom manages, is what fills them.
 */
public final class SyntheticScenario {
  /** Request sizes, millicores; see the class comment. */
  static final long[] REQUEST_SIZES_MILLI =
      {1000, 2000, 4000, 6000, 8000, 12000, 16000, 24000, 32000, 64000, 96000};
  /** Weight of each size per mille of trace pods (sums to 1001 from rounding). */
  static final int[] REQUEST_WEIGHTS = {5, 1, 296, 20, 110, 395, 120, 11, 37, 3, 3};
  static final double MEMORY_MIB_PER_CORE = 3814;
  static final double LIFETIME_LOG_MU = 6.44;
  static final double LIFETIME_LOG_SIGMA = 1.88;
  static final long BIND_DELAY_MS = 2_000;
  static final double JOB_SHARE = 0.42;
  static final double FAILED_SHARE = 0.258;
  static final double SUCCEEDED_SHARE = 0.026;
  static final long NODE_MEMORY_MIB_PER_CORE = 8192;

  /**
   * @param nodes identical nodes
   * @param nodeCpuMilli each node's allocatable CPU
   * @param pods pods offered to the scheduler
   * @param arrivalsPerSecond mean pod arrivals per second of uncompressed time (Poisson)
   * @param timeCompression every time (arrivals, delays, lifetimes) is divided by this
   * @param requestScale multiplies every drawn CPU and memory request (small demo nodes: 0.1)
   * @param managedRatio share of pods in the managed namespace, 0..1
   * @param seed the generator's seed
   * @param withConfig whether the log starts with a HeadroomConfig ({@code dryRun: false})
   * @param start the scenario's time zero
   */
  public record Options(int nodes, long nodeCpuMilli, int pods, double arrivalsPerSecond,
      double timeCompression, double requestScale, double managedRatio, long seed,
      boolean withConfig, Instant start) {
    public Options {
      if (nodes < 1 || pods < 0) {
        throw new IllegalArgumentException("need nodes >= 1 and pods >= 0");
      }
      if (nodeCpuMilli < 1) {
        throw new IllegalArgumentException("nodeCpuMilli must be positive, got " + nodeCpuMilli);
      }
      if (!(arrivalsPerSecond > 0) || !(timeCompression > 0) || !(requestScale > 0)) {
        throw new IllegalArgumentException("arrival rate, compression and request scale must be positive");
      }
      if (!(managedRatio >= 0 && managedRatio <= 1)) {
        throw new IllegalArgumentException("managedRatio must be within 0..1, got " + managedRatio);
      }
      start = start == null ? TraceScenario.DEFAULT_START : start;
    }

    /**
     * {@code nodes} 96-core nodes (the trace's most common size) and {@code pods} pods arriving
     * fast enough to keep them about 70% booked in steady state, time ×100 faster, three in four
     * pods managed, with a HeadroomConfig.
     */
    public static Options defaults(int nodes, int pods) {
      long nodeCpu = 96_000;
      // Little's law: live pods = rate × mean lifetime; aim at 70% of the CPU.
      double meanRequestCores = meanRequestMilli() / 1000.0;
      double meanLifetimeS = Math.exp(LIFETIME_LOG_MU + LIFETIME_LOG_SIGMA * LIFETIME_LOG_SIGMA / 2);
      double rate = 0.7 * nodes * (nodeCpu / 1000.0) / meanRequestCores / meanLifetimeS;
      return new Options(nodes, nodeCpu, pods, rate, 100, 1.0, 0.75, 1, true, TraceScenario.DEFAULT_START);
    }

    public Options withSeed(long value) {
      return new Options(nodes, nodeCpuMilli, pods, arrivalsPerSecond, timeCompression, requestScale,
          managedRatio, value, withConfig, start);
    }

    public Options withNodeCpu(long milli, double scale) {
      return new Options(nodes, milli, pods, arrivalsPerSecond, timeCompression, scale,
          managedRatio, seed, withConfig, start);
    }

    public Options withTime(double arrivals, double compression) {
      return new Options(nodes, nodeCpuMilli, pods, arrivals, compression, requestScale,
          managedRatio, seed, withConfig, start);
    }
  }

  private SyntheticScenario() {}

  /** The scenario: events plus placement counts. */
  public static Scenario generate(Options options) {
    Random random = new Random(options.seed());
    List<NodePlan> nodes = new ArrayList<>(options.nodes());
    long nodeMemory = Math.max(1, options.nodeCpuMilli() * NODE_MEMORY_MIB_PER_CORE / 1000);
    for (int i = 0; i < options.nodes(); i++) {
      nodes.add(new NodePlan(String.format("node-%05d", i), options.nodeCpuMilli(), nodeMemory));
    }
    List<PodPlan> pods = new ArrayList<>(options.pods());
    double k = options.timeCompression();
    double arrivalS = 0;
    for (int i = 0; i < options.pods(); i++) {
      arrivalS += -Math.log(1 - random.nextDouble()) / options.arrivalsPerSecond();
      long cpu = Math.max(10, Math.round(drawRequestMilli(random) * options.requestScale() / 10) * 10);
      long mem = Math.max(1, Math.round(cpu / 1000.0 * MEMORY_MIB_PER_CORE / 64) * 64);
      double lifetimeS = Math.exp(LIFETIME_LOG_MU + LIFETIME_LOG_SIGMA * random.nextGaussian());
      boolean managed = random.nextDouble() < options.managedRatio();
      String owner = random.nextDouble() < JOB_SHARE ? PodPlan.JOB : PodPlan.REPLICA_SET;
      double end = random.nextDouble();
      String phase = end < FAILED_SHARE ? "Failed" : end < FAILED_SHARE + SUCCEEDED_SHARE ? "Succeeded" : "Running";
      long created = Math.round(arrivalS * 1000 / k);
      long bind = created + Math.round(BIND_DELAY_MS / k);
      long endMs = bind + Math.max(1, Math.round(lifetimeS * 1000 / k));
      pods.add(new PodPlan(String.format("syn-%06d", i), managed, owner, cpu, mem, created, bind, endMs, phase));
    }
    return ScenarioAssembler.assemble(options.seed(), options.start(), options.withConfig(), nodes, pods, 0);
  }

  /** Just the events, in time order: what {@code demo} feeds its simulated API server. */
  public static List<ScenarioEvent> events(Options options) {
    return generate(options).events();
  }

  static long drawRequestMilli(Random random) {
    int total = 0;
    for (int w : REQUEST_WEIGHTS) {
      total += w;
    }
    int pick = random.nextInt(total);
    for (int i = 0; i < REQUEST_WEIGHTS.length; i++) {
      pick -= REQUEST_WEIGHTS[i];
      if (pick < 0) {
        return REQUEST_SIZES_MILLI[i];
      }
    }
    return REQUEST_SIZES_MILLI[REQUEST_SIZES_MILLI.length - 1];
  }

  static double meanRequestMilli() {
    double sum = 0;
    int total = 0;
    for (int i = 0; i < REQUEST_WEIGHTS.length; i++) {
      sum += REQUEST_SIZES_MILLI[i] * (double) REQUEST_WEIGHTS[i];
      total += REQUEST_WEIGHTS[i];
    }
    return sum / total;
  }
}
