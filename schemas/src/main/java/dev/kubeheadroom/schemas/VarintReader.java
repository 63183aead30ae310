package dev.kubeheadroom.schemas;

import java.nio.ByteBuffer;
import java.time.Instant;

/** Reads back what {@link VarintWriter} writes; {@code what} names the value in an error. */
public final class VarintReader {
  private VarintReader() {}

  public static boolean bool(ByteBuffer in) {
    return in.get() != 0;
  }

  public static Instant instant(ByteBuffer in, String what) {
    long v = varLong(in, what);
    return Instant.ofEpochSecond((v >>> 1) ^ -(v & 1), varLong(in, what));
  }

  public static long varLong(ByteBuffer in, String what) {
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
}
