package dev.kubeheadroom.bench;

import dev.kubeheadroom.schemas.CheckpointCodec;
import dev.kubeheadroom.schemas.ContainerKind;
import dev.kubeheadroom.schemas.ContainerSnapshot;
import dev.kubeheadroom.schemas.JsonCodec;
import dev.kubeheadroom.schemas.NodeCheckpoint;
import dev.kubeheadroom.schemas.NodeCheckpoint.CheckpointPod;
import dev.kubeheadroom.schemas.NodeSnapshot;
import dev.kubeheadroom.schemas.OwnerRef;
import dev.kubeheadroom.schemas.PodSnapshot;
import dev.kubeheadroom.schemas.ResizeStatus;
import java.lang.management.ManagementFactory;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;

/**
 * What one cut costs to encode and decode, JSON (format 1) against binary (format 2): 5,000
 * checkpoints of 30 pods shaped like {@link AuditBench}'s, in thread CPU time (the machine is
 * shared: wall time would measure the load). Round 0 is a cold JVM, as a CLI audit runs.
 *
 * <pre>
 * java -cp tooling/bench/target/benchmarks.jar dev.kubeheadroom.bench.CheckpointCodecCost [rounds]
 * </pre>
 */
public final class CheckpointCodecCost {
  private CheckpointCodecCost() {}

  public static void main(String[] args) {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 6;
    List<NodeCheckpoint> cut = cut(5_000, 30);
    for (int round = 0; round < rounds; round++) {
      List<byte[]> json = new ArrayList<>();
      List<byte[]> binary = new ArrayList<>();
      double encodeJson = cpu(() -> cut.forEach(c -> json.add(JsonCodec.encode(c))));
      double encodeBinary = cpu(() -> cut.forEach(c -> binary.add(CheckpointCodec.encode(c))));
      double decodeJson = cpu(() -> decodeAll(json, b -> JsonCodec.decode(b, NodeCheckpoint.class)));
      double decodeBinary = cpu(() -> decodeAll(binary, CheckpointCodec::decode));
      System.out.printf(Locale.ROOT, "round %d: %,d checkpoints of 30 pods, CPU-s: encode JSON %.3f, binary %.3f;"
          + " decode JSON %.3f, binary %.3f; bytes per checkpoint JSON %,d, binary %,d%n", round, cut.size(),
          encodeJson, encodeBinary, decodeJson, decodeBinary, json.get(0).length, binary.get(0).length);
    }
  }

  private static void decodeAll(List<byte[]> values, Function<byte[], NodeCheckpoint> decode) {
    for (byte[] b : values) {
      if (decode.apply(b).pods().isEmpty()) {
        throw new IllegalStateException("a checkpoint lost its pods");
      }
    }
  }

  private static double cpu(Runnable work) {
    var threads = ManagementFactory.getThreadMXBean();
    long t = threads.getCurrentThreadCpuTime();
    work.run();
    return (threads.getCurrentThreadCpuTime() - t) / 1e9;
  }

  private static List<NodeCheckpoint> cut(int nodes, int podsPerNode) {
    Random random = new Random(1);
    Instant at = Instant.parse("2026-12-01T12:00:00Z");
    List<NodeCheckpoint> out = new ArrayList<>(nodes);
    for (int n = 0; n < nodes; n++) {
      String node = "node-" + n;
      List<CheckpointPod> pods = new ArrayList<>(podsPerNode);
      for (int i = 0; i < podsPerNode; i++) {
        long request = 50 + random.nextInt(476);
        String owner = "app-" + (n * 7 + i) % 900 + "-5d9f8";
        String name = owner + "-" + Integer.toString(random.nextInt(1 << 20), 36);
        pods.add(new CheckpointPod(new PodSnapshot("uid-" + n + "-" + i, "ns-" + i % 40, name, node, "Running",
            PodSnapshot.QOS_BURSTABLE, Integer.toString(1_000_000 + random.nextInt(1_000_000)), 1, "", 0, null,
            false, List.of(new OwnerRef("ReplicaSet", owner, "rs-" + owner, true)),
            List.of(new ContainerSnapshot("app", ContainerKind.APP, request, request * 2, false, false),
                new ContainerSnapshot("proxy", ContainerKind.SIDECAR, 10, 100, false, false)),
            ResizeStatus.NONE), null, false, 0));
      }
      out.add(new NodeCheckpoint(node, at, new NodeSnapshot(node, 15_890, "linux", false,
          Map.of("kubernetes.io/os", "linux", "topology.kubernetes.io/zone", "zone-" + n % 3,
              "node.kubernetes.io/instance-type", "m6i.4xlarge")), pods,
          // the cut a live task writes: its partition of the three node-keyed topics
          List.of(new NodeCheckpoint.Position("headroom.pods", n % 6, 4_000_000L + n),
              new NodeCheckpoint.Position("headroom.nodes", n % 6, 200_000L + n),
              new NodeCheckpoint.Position("headroom.outcomes", n % 6, 30_000L + n))));
    }
    return out;
  }
}
