package dev.kubeheadroom.schemas;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
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

  /** A string {@link VarintWriter#str} wrote (null as written). */
  public static String str(ByteBuffer in, String what) {
    int len = count(in, what);
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

  /** A length or count: never more than the bytes left, so a corrupt one fails cleanly. */
  public static int count(ByteBuffer in, String what) {
    long n = varLong(in, what);
    if (n < 0 || n > in.remaining() + 1L) {
      throw new SchemaException(what + " count " + n + " exceeds the value's length");
    }
    return (int) n;
  }
}
