package dev.kubeheadroom.topology;

import dev.kubeheadroom.schemas.JsonCodec;
import dev.kubeheadroom.schemas.PodLayout;
import dev.kubeheadroom.schemas.PodSnapshot;
import dev.kubeheadroom.schemas.SchemaException;
import dev.kubeheadroom.schemas.VarintReader;
import dev.kubeheadroom.schemas.VarintWriter;
import dev.kubeheadroom.topology.booking.Pending;
import dev.kubeheadroom.topology.booking.PodEntry;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * The pod store's values in a compact binary form: the store takes one write per pod event and
 * its changelog carries every write, so the value's size and encoding cost are the topology's
 * per-record cost (about a quarter of the JSON's bytes, several times faster). Versioned by a
 * leading byte; a value starting with {@code '{'} is the JSON written by earlier releases and is
 * still read, so a changelog restores across the upgrade, and so is every earlier binary version.
 * The pod is in {@link PodLayout} (after that layout's version); the entry's fields follow,
 * strings UTF-8 with a varint length (0 = null).
 */
final class PodEntrySerde implements Serde<PodEntry>, Serializer<PodEntry>, Deserializer<PodEntry> {
  /**
   * 5 writes the pod in {@link PodLayout}, its version first, epoch and gang included (bookings
   * hold events unstamped: the node's epoch lives in the fences store, {@code EpochFence}, so it
   * is 0 here);
   * 4 added the pod's {@code gang} annotation at the end (1 to 3 are read as no gang); 3 added the
   * entry's {@code refusals} at the end (1 and 2 are read with one refusal when in backoff, else
   * none); 2 added {@code podLevelResources} after the resize status (1 is read as false).
   */
  static final byte VERSION = 5;
  private static final byte VERSION_4 = 4;
  private static final byte VERSION_3 = 3;
  private static final byte VERSION_1 = 1;
  private static final String WHAT = "pod store value";
  /**
   * Component counts the format covers (a pod's are {@link PodLayout}'s); a test fails when a
   * record gains a field. PodEntry's {@code facts} follow from its pod (derived when an entry is
   * made) and are not counted.
   */
  static final int PENDING_FIELDS = 4;
  static final int ENTRY_FIELDS = 5;

  @Override
  public byte[] serialize(String topic, PodEntry entry) {
    if (entry == null) {
      return null;
    }
    VarintWriter w = new VarintWriter(256);
    w.raw(VERSION).raw(PodLayout.VERSION);
    PodLayout.write(w, entry.pod().withEpoch(0)); // bookings hold events unstamped, as every earlier format did
    Pending pending = entry.pending();
    w.bool(pending != null);
    if (pending != null) {
      w.varLong(pending.targetMilli()).instant(pending.at()).bool(pending.dryRun());
      w.varLong(pending.containers().size());
      // sorted, so equal entries encode to equal bytes
      for (Map.Entry<String, Long> e : new TreeMap<>(pending.containers()).entrySet()) {
        w.str(e.getKey()).varLong(e.getValue());
      }
    }
    w.bool(entry.backoffSince() != null);
    if (entry.backoffSince() != null) {
      w.instant(entry.backoffSince());
    }
    w.bool(entry.infeasibleSeen());
    w.varLong(entry.refusals());
    return w.toByteArray();
  }

  @Override
  public PodEntry deserialize(String topic, byte[] data) {
    if (data == null) {
      return null;
    }
    if (data.length > 0 && data[0] == '{') {
      return JsonCodec.decode(data, PodEntry.class); // written before the binary format
    }
    try {
      VarintReader in = new VarintReader(ByteBuffer.wrap(data), WHAT);
      byte version = in.raw();
      if (version < VERSION_1 || version > VERSION) {
        throw new SchemaException("pod store value has format version " + version + ", this build reads "
            + VERSION + " (and JSON)");
      }
      return readEntry(in, version);
    } catch (RuntimeException e) {
      if (e instanceof SchemaException) {
        throw e;
      }
      throw new SchemaException("unreadable pod store value: " + e);
    }
  }

  private static PodEntry readEntry(VarintReader in, byte version) {
    PodSnapshot pod = version == VERSION ? PodLayout.read(in, PodLayout.readVersion(in))
        : PodLayout.readUnversioned(in, version == VERSION_1
            ? PodLayout.Unversioned.BEFORE_POD_LEVEL_RESOURCES : PodLayout.Unversioned.TO_POD_LEVEL_RESOURCES);
    Pending pending = null;
    if (in.bool()) {
      long target = in.varLong();
      Instant at = in.instant();
      boolean dryRun = in.bool();
      int n = in.count();
      Map<String, Long> limits = new HashMap<>();
      for (int i = 0; i < n; i++) {
        limits.put(in.str(), in.varLong());
      }
      pending = new Pending(target, limits, at, dryRun);
    }
    Instant backoffSince = in.bool() ? in.instant() : null;
    boolean infeasibleSeen = in.bool();
    int refusals = version >= VERSION_3 ? (int) Math.min(Integer.MAX_VALUE, in.varLong())
        : backoffSince == null ? 0 : 1;
    if (version == VERSION_4) {
      pod = pod.withGang(in.str());
    }
    if (in.remaining() > 0) {
      throw new SchemaException("pod store value has " + in.remaining() + " bytes past its end");
    }
    return new PodEntry(pod, pending, backoffSince, infeasibleSeen, refusals);
  }

  @Override
  public void configure(Map<String, ?> configs, boolean isKey) {
    // nothing to configure: the format is fixed
  }

  @Override
  public void close() {
    // stateless
  }

  @Override
  public Serializer<PodEntry> serializer() {
    return this;
  }

  @Override
  public Deserializer<PodEntry> deserializer() {
    return this;
  }
}
