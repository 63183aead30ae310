package dev.kubeheadroom.schemas;

import java.util.ArrayList;
import java.util.List;

/**
 * The one binary layout of a {@link PodSnapshot}, which every binary store of pods embeds: the
 * pod store's values (topology's {@code PodEntrySerde}) and the checkpoints ({@link
 * CheckpointCodec}). A store writes the layout's version once, after its own format's, so a pod
 * that gains a field changes this class alone: {@link #VERSION} goes up, the field is written
 * last, and {@link #read} gives the older layouts the field's default; the stores keep their
 * formats.
 * Strings are UTF-8 with a varint length (0 = null), enums by name (reordering an enum never
 * misreads a value), lists count first.
 *
 * <p>Layout 1: uid, namespace, name, node, phase, qosClass, resourceVersion, generation, mode,
 * maxCpuMilli, maxCpuInvalid, vpaControlsLimits; the owners (kind, name, uid, controller); the
 * containers (name, kind, request, limit, memoryGuaranteed, cpuResizeRestarts); the resize
 * status, podLevelResources, epoch, gang. The stores' formats written before the layout had a
 * version (pod store 1 to 4, checkpoint 2 and 3) hold the same fields unversioned, in one of the
 * {@link Unversioned} shapes.
 */
public final class PodLayout {
  /** The layout written; 1 to this are read. */
  public static final byte VERSION = 1;
  /** Component counts the layout covers; a test fails when a record gains a field. */
  public static final int POD_FIELDS = 18;
  public static final int CONTAINER_FIELDS = 6;
  public static final int OWNER_FIELDS = 4;

  /** How a store wrote a pod before the layout had a version. */
  public enum Unversioned {
    /** Pod store format 1: up to the resize status. */
    BEFORE_POD_LEVEL_RESOURCES,
    /** Pod store formats 2 to 4: up to podLevelResources (format 4 wrote the gang after the entry). */
    TO_POD_LEVEL_RESOURCES,
    /** Checkpoint formats 2 and 3: layout 1 without its version. */
    TO_GANG
  }

  private PodLayout() {}

  /** The pod in layout {@link #VERSION} (which the store writes before it). */
  public static void write(VarintWriter w, PodSnapshot p) {
    w.str(p.uid()).str(p.namespace()).str(p.name()).str(p.node()).str(p.phase()).str(p.qosClass())
        .str(p.resourceVersion()).varLong(p.generation()).str(p.mode()).varLong(p.maxCpuMilli())
        .str(p.maxCpuInvalid()).bool(p.vpaControlsLimits());
    w.varLong(p.owners().size());
    for (OwnerRef o : p.owners()) {
      w.str(o.kind()).str(o.name()).str(o.uid()).bool(o.controller());
    }
    w.varLong(p.containers().size());
    for (ContainerSnapshot c : p.containers()) {
      w.str(c.name()).str(c.kind().name()).varLong(c.cpuRequestMilli()).varLong(c.cpuLimitMilli())
          .bool(c.memoryGuaranteed()).bool(c.cpuResizeRestarts());
    }
    w.str(p.resize().name()).bool(p.podLevelResources()).varLong(p.epoch()).str(p.gang());
  }

  /**
   * The layout version a store wrote, read and checked.
   *
   * @throws SchemaException for a version this build does not read
   */
  public static byte readVersion(VarintReader in) {
    byte version = in.raw();
    if (version < 1 || version > VERSION) {
      throw new SchemaException(in.what() + " has pods in layout version " + version + ", this build reads 1 to "
          + VERSION);
    }
    return version;
  }

  /** A pod {@link #write} wrote in layout {@code version} ({@link #readVersion}). */
  public static PodSnapshot read(VarintReader in, byte version) {
    return readUnversioned(in, Unversioned.TO_GANG); // layout 1 is every version yet
  }

  /** A pod a store wrote before the layout had a version, in that store's {@code shape}. */
  public static PodSnapshot readUnversioned(VarintReader in, Unversioned shape) {
    String uid = in.str();
    String namespace = in.str();
    String name = in.str();
    String node = in.str();
    String phase = in.str();
    String qos = in.str();
    String rv = in.str();
    long generation = in.varLong();
    String mode = in.str();
    long maxCpu = in.varLong();
    String maxCpuInvalid = in.str();
    boolean vpa = in.bool();
    int owners = in.count();
    List<OwnerRef> ownerList = new ArrayList<>(owners);
    for (int i = 0; i < owners; i++) {
      ownerList.add(new OwnerRef(in.str(), in.str(), in.str(), in.bool()));
    }
    int containers = in.count();
    List<ContainerSnapshot> containerList = new ArrayList<>(containers);
    for (int i = 0; i < containers; i++) {
      containerList.add(new ContainerSnapshot(in.str(), ContainerKind.valueOf(in.str()),
          in.varLong(), in.varLong(), in.bool(), in.bool()));
    }
    ResizeStatus resize = ResizeStatus.valueOf(in.str());
    boolean podLevelResources = shape != Unversioned.BEFORE_POD_LEVEL_RESOURCES && in.bool();
    long epoch = shape == Unversioned.TO_GANG ? in.varLong() : 0;
    String gang = shape == Unversioned.TO_GANG ? in.str() : null;
    return new PodSnapshot(uid, namespace, name, node, phase, qos, rv, generation, mode, maxCpu,
        maxCpuInvalid, vpa, ownerList, containerList, resize, podLevelResources, epoch, gang);
  }
}
