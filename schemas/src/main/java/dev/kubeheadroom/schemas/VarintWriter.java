package dev.kubeheadroom.schemas;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;

/**
 * The binary store and checkpoint values' primitives, written: a growable buffer, numbers as
 * unsigned varints, instants as zigzag seconds (they may be negative) then nanos, strings as
 * length + 1 (0 = null) then UTF-8. {@link VarintReader} reads them back; the pod store's serde
 * and {@link CheckpointCodec} both write through it, so the two formats share one encoding.
 */
public final class VarintWriter {
  private byte[] buf;
  private int len;

  public VarintWriter(int initialCapacity) {
    buf = new byte[initialCapacity];
  }

  private void ensure(int more) {
    if (len + more > buf.length) {
      buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + more));
    }
  }

  public VarintWriter raw(byte b) {
    ensure(1);
    buf[len++] = b;
    return this;
  }

  public VarintWriter str(String s) {
    if (s == null) {
      return varLong(0);
    }
    byte[] b = s.getBytes(StandardCharsets.UTF_8);
    varLong(b.length + 1L);
    ensure(b.length);
    System.arraycopy(b, 0, buf, len, b.length);
    len += b.length;
    return this;
  }

  public VarintWriter bool(boolean b) {
    return raw((byte) (b ? 1 : 0));
  }

  public VarintWriter instant(Instant t) {
    long s = t.getEpochSecond();
    return varLong((s << 1) ^ (s >> 63)).varLong(t.getNano());
  }

  public VarintWriter varLong(long v) {
    ensure(10);
    while ((v & ~0x7FL) != 0) {
      buf[len++] = (byte) ((v & 0x7F) | 0x80);
      v >>>= 7;
    }
    buf[len++] = (byte) v;
    return this;
  }

  /** The bytes written so far. */
  public byte[] toByteArray() {
    return Arrays.copyOf(buf, len);
  }
}
