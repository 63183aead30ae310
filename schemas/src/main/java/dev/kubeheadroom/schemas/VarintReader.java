package dev.kubeheadroom.schemas;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;

/**
 * Reads back what {@link VarintWriter} writes, from a buffer's position on; {@code what} names the
 * value in an error. A length or count is never more than the bytes left, so a corrupt one fails
 * as a {@link SchemaException} (a value cut short: {@link java.nio.BufferUnderflowException}).
 */
public final class VarintReader {
  private final ByteBuffer in;
  private final String what;

  public VarintReader(ByteBuffer in, String what) {
    this.in = in;
    this.what = what;
  }

  /** What the value is, for an error. */
  public String what() {
    return what;
  }

  /** One byte as written by {@link VarintWriter#raw}. */
  public byte raw() {
    return in.get();
  }

  public boolean bool() {
    return in.get() != 0;
  }

  public Instant instant() {
    long v = varLong();
    return Instant.ofEpochSecond((v >>> 1) ^ -(v & 1), varLong());
  }

  public long varLong() {
    long value = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      byte b = in.get();
      value |= (long) (b & 0x7F) << shift;
      if (b >= 0) {
        return value;
      }
    }
    throw new SchemaException(what + " has a malformed number");
  }

  /** A string {@link VarintWriter#str} wrote (null as written). */
  public String str() {
    int len = count();
    if (len == 0) {
      return null;
    }
    if (len - 1 > in.remaining()) {
      throw new SchemaException(what + " string runs past the value's end");
    }
    String s = new String(in.array(), in.arrayOffset() + in.position(), len - 1, StandardCharsets.UTF_8);
    in.position(in.position() + len - 1);
    return s;
  }

  /** A length or count. */
  public int count() {
    long n = varLong();
    if (n < 0 || n > in.remaining() + 1L) {
      throw new SchemaException(what + " count " + n + " exceeds the value's length");
    }
    return (int) n;
  }

  /** The bytes not read yet. */
  public int remaining() {
    return in.remaining();
  }
}
