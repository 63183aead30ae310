package dev.kubeheadroom.schemas;

import dev.kubeheadroom.schemas.NodeCheckpoint.CheckpointPod;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The checkpoints topic's value in a compact binary form: a cut is thousands of checkpoints of
 * dozens of pods, and decoding them is what an audit from a checkpoint spends its time on (the
 * JSON is several times larger and slower to decode). A leading version byte; a value starting
 * with {@code '{'} is the JSON checkpoint written before it (format 1) and is still read, and so is
 * format 2 (format 3 without the cut, which follows the boundary: {@link #cut} reads only that far)
 * and format 3 (pods unversioned) and 4 (no read order: {@link NodeCheckpoint#order}, which follows
 * the cut, each run a topic's index in the cut and a count). Pods are in {@link PodLayout}. Strings are UTF-8 with a varint
 * length (0 = null), enums by name, maps sorted by key, so equal
 * checkpoints encode to equal bytes ({@code audit --verify} compares them byte for byte).
 */
public final class CheckpointCodec {
  /**
   * The binary format: 5 adds the read order after the cut; 4 writes the pods in {@link
   * PodLayout}, its version after the format's; 3 wrote them unversioned; 2 had no cut either (1
   * is the JSON).
   */
  public static final byte VERSION = 5;
  private static final byte WITHOUT_ORDER = 4;
  private static final byte UNVERSIONED_PODS = 3;
  private static final byte WITHOUT_CUT = 2;
  private static final String WHAT = "checkpoint";
  /**
   * Component counts the format covers (a pod's are {@link PodLayout}'s); a test fails when a
   * record gains a field.
   */
  static final int CHECKPOINT_FIELDS = 6;
  static final int CHECKPOINT_POD_FIELDS = 4;
  static final int NODE_FIELDS = 6;

  private CheckpointCodec() {}

  public static byte[] encode(NodeCheckpoint c) {
    VarintWriter w = new VarintWriter(1024);
    w.raw(VERSION).raw(PodLayout.VERSION).str(c.node()).instant(c.at());
    w.varLong(c.cut().size());
    for (NodeCheckpoint.Position p : c.cut()) {
      w.str(p.topic()).varLong(p.partition()).varLong(p.offset());
    }
    writeOrder(w, c);
    NodeSnapshot n = c.snapshot();
    w.bool(n != null);
    if (n != null) {
      w.str(n.node()).varLong(n.allocatableMilli()).str(n.os()).bool(n.staticCpuManager());
      w.varLong(n.labels().size());
      new TreeMap<>(n.labels()).forEach((k, v) -> w.str(k).str(v));
      w.varLong(n.epoch());
    }
    w.varLong(c.pods().size());
    for (CheckpointPod cp : c.pods()) {
      PodLayout.write(w, cp.pod());
      w.bool(cp.backoffSince() != null);
      if (cp.backoffSince() != null) {
        w.instant(cp.backoffSince());
      }
      w.bool(cp.infeasibleSeen()).varLong(cp.refusals());
    }
    return w.toByteArray();
  }

  /** A checkpoint in any format. */
  public static NodeCheckpoint decode(byte[] data) {
    if (data == null || data.length == 0) {
      throw new SchemaException("empty checkpoint value");
    }
    if (data[0] == '{') {
      return JsonCodec.decode(data, NodeCheckpoint.class); // format 1, written before the binary one
    }
    checkVersion(data);
    try {
      VarintReader in = new VarintReader(ByteBuffer.wrap(data, 1, data.length - 1), WHAT);
      NodeCheckpoint c = checkpoint(in, data[0]);
      if (in.remaining() > 0) {
        throw new SchemaException("checkpoint has " + in.remaining() + " bytes past its end");
      }
      return c;
    } catch (BufferUnderflowException | IndexOutOfBoundsException | IllegalArgumentException
        | NullPointerException e) {
      throw new SchemaException("unreadable checkpoint: " + e);
    }
  }

  /**
   * Only a checkpoint's cut (empty before format 3), read from its head without decoding the
   * booking: {@code audit --verify} needs every stored checkpoint's cut, not its pods.
   */
  public static List<NodeCheckpoint.Position> cut(byte[] data) {
    if (data == null || data.length == 0) {
      throw new SchemaException("empty checkpoint value");
    }
    if (data[0] == '{') {
      return decode(data).cut();
    }
    checkVersion(data);
    if (data[0] == WITHOUT_CUT) {
      return List.of();
    }
    try {
      VarintReader in = new VarintReader(ByteBuffer.wrap(data, 1, data.length - 1), WHAT);
      if (data[0] > UNVERSIONED_PODS) {
        PodLayout.readVersion(in);
      }
      in.str();
      in.instant();
      return positions(in);
    } catch (BufferUnderflowException | IllegalArgumentException | NullPointerException e) {
      throw new SchemaException("unreadable checkpoint: " + e);
    }
  }

  /**
   * Whether a stored value is what {@link #encode} writes today for what it holds (format and pod
   * layout current), so that comparing bytes compares content.
   */
  public static boolean current(byte[] data) {
    return data.length > 1 && data[0] == VERSION && data[1] == PodLayout.VERSION;
  }

  private static void checkVersion(byte[] data) {
    if (data[0] < WITHOUT_CUT || data[0] > VERSION) {
      throw new SchemaException("checkpoint has format version " + data[0] + ", this build reads " + WITHOUT_CUT
          + " to " + VERSION + " (and JSON)");
    }
  }

  /** The runs plus one (0: not recorded), each its topic's index in the cut and its count. */
  private static void writeOrder(VarintWriter w, NodeCheckpoint c) {
    if (c.order() == null) {
      w.varLong(0);
      return;
    }
    w.varLong(c.order().size() + 1L);
    for (NodeCheckpoint.Run r : c.order()) {
      int index = 0;
      while (index < c.cut().size() && !c.cut().get(index).topic().equals(r.topic())) {
        index++;
      }
      if (index == c.cut().size()) {
        throw new IllegalArgumentException("checkpoint " + c.key() + ": a run of " + r.topic() + ", not in its cut");
      }
      w.varLong(index).varLong(r.records());
    }
  }

  private static List<NodeCheckpoint.Run> readOrder(VarintReader in, List<NodeCheckpoint.Position> cut) {
    long n = in.varLong();
    if (n == 0) {
      return null;
    }
    if (n - 1 > in.remaining()) {
      throw new SchemaException("checkpoint read order of " + (n - 1) + " runs, past its end");
    }
    List<NodeCheckpoint.Run> out = new ArrayList<>((int) (n - 1));
    for (long i = 1; i < n; i++) {
      String topic = cut.get((int) in.varLong()).topic();
      out.add(new NodeCheckpoint.Run(topic, (int) Math.min(Integer.MAX_VALUE, in.varLong())));
    }
    return out;
  }

  /**
   * A checkpoint's cut and read order (null before format 5), read from its head without decoding
   * the booking: {@code audit --verify} folds each node's records of the interval in that order.
   */
  public static NodeCheckpoint head(byte[] data) {
    if (data == null || data.length == 0) {
      throw new SchemaException("empty checkpoint value");
    }
    if (data[0] == '{' || data[0] == WITHOUT_CUT) {
      return decode(data);
    }
    checkVersion(data);
    try {
      VarintReader in = new VarintReader(ByteBuffer.wrap(data, 1, data.length - 1), WHAT);
      if (data[0] > UNVERSIONED_PODS) {
        PodLayout.readVersion(in);
      }
      String node = in.str();
      Instant at = in.instant();
      List<NodeCheckpoint.Position> cut = positions(in);
      List<NodeCheckpoint.Run> order = data[0] > WITHOUT_ORDER ? readOrder(in, cut) : null;
      return new NodeCheckpoint(node, at, null, List.of(), cut, order);
    } catch (BufferUnderflowException | IndexOutOfBoundsException | IllegalArgumentException
        | NullPointerException e) {
      throw new SchemaException("unreadable checkpoint: " + e);
    }
  }

  private static List<NodeCheckpoint.Position> positions(VarintReader in) {
    int n = in.count();
    List<NodeCheckpoint.Position> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      String topic = in.str();
      int partition = (int) in.varLong();
      out.add(new NodeCheckpoint.Position(topic, partition, in.varLong()));
    }
    return out;
  }

  private static NodeCheckpoint checkpoint(VarintReader in, byte version) {
    byte layout = version > UNVERSIONED_PODS ? PodLayout.readVersion(in) : 0;
    String node = in.str();
    Instant at = in.instant();
    List<NodeCheckpoint.Position> cut = version == WITHOUT_CUT ? List.of() : positions(in);
    List<NodeCheckpoint.Run> order = version > WITHOUT_ORDER ? readOrder(in, cut) : null;
    NodeSnapshot snapshot = null;
    if (in.bool()) {
      String name = in.str();
      long allocatable = in.varLong();
      String os = in.str();
      boolean staticCpu = in.bool();
      int labels = in.count();
      Map<String, String> labelMap = new TreeMap<>();
      for (int i = 0; i < labels; i++) {
        labelMap.put(in.str(), in.str());
      }
      snapshot = new NodeSnapshot(name, allocatable, os, staticCpu, labelMap, in.varLong());
    }
    int pods = in.count();
    List<CheckpointPod> podList = new ArrayList<>(pods);
    for (int i = 0; i < pods; i++) {
      PodSnapshot pod = version > UNVERSIONED_PODS ? PodLayout.read(in, layout)
          : PodLayout.readUnversioned(in, PodLayout.Unversioned.TO_GANG);
      Instant backoffSince = in.bool() ? in.instant() : null;
      boolean infeasibleSeen = in.bool();
      podList.add(new CheckpointPod(pod, backoffSince, infeasibleSeen, (int) Math.min(Integer.MAX_VALUE, in.varLong())));
    }
    return new NodeCheckpoint(node, at, snapshot, podList, cut, order);
  }
}
