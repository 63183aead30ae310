package dev.kubeheadroom.projection;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The lines of a UTF-8 watch log read as bytes, for {@link WatchLogReader#forProjection}: the log
 * is read in large blocks, a plain Pod or Node line is bound straight from its bytes ({@link
 * ProjectedByteLine}), and every other line is decoded and read as text exactly as before ({@link
 * WatchLogReader#parseForProjection}). {@link WatchLogReader#read(java.nio.file.Path)} splits its
 * lines here too, decoding each and binding it whole. No {@code String} per line and no UTF-8 decoding on the way:
 * those and Jackson's tokenizer were most of the reading thread's time.
 *
 * <p>Lines split as {@code BufferedReader.readLine} splits them: at LF, CR or CR LF, the last one
 * with or without a line break; blank lines ({@code String.isBlank}) are counted and skipped. A
 * line that is not UTF-8 (a Latin-1 byte, a binary file passed by mistake) is a {@link Malformed}
 * line naming its first bad byte; reading goes on. Not thread-safe.
 */
final class WatchLogBytes implements Closeable {
  static final int DEFAULT_BLOCK = 1 << 18;

  private final InputStream in;
  private final JsonBytes json = new JsonBytes();
  private final ProjectedByteLine line = new ProjectedByteLine();
  /** After the data: a line feed and 15 more bytes, which {@link JsonStrings} reads words from. */
  private static final int PAD = 16;

  /** The data is {@code [pos, limit)}; {@code buf[limit]} is always a line feed. */
  private byte[] buf;
  private int pos;
  private int limit;
  private boolean eof;
  private long lineNumber;
  private long boundFromBytes;
  /** Set by {@link #text} when a line is not UTF-8. */
  private int badByte;

  WatchLogBytes(InputStream in, int block) {
    if (block < 1) {
      throw new IllegalArgumentException("block must be positive: " + block);
    }
    this.in = in;
    this.buf = new byte[block + PAD];
    buf[0] = '\n';
  }

  /** Lines read so far, blank ones included. */
  long lineNumber() {
    return lineNumber;
  }

  /** Lines bound from their bytes; every other line was read as text. */
  long boundFromBytes() {
    return boundFromBytes;
  }

  /** The next non-blank line's item, or null at the end of the log. */
  WatchLogItem next(WatchLogReader reader) throws IOException {
    while (true) {
      if (pos == limit && !fill()) {
        return null;
      }
      int start = pos;
      boolean bound = reader.projectedOnly();
      if (bound) {
        json.reset(buf, start);
        try {
          line.read(json);
          json.ws();
        } catch (JsonBytes.Refused refused) {
          bound = false;
        }
      }
      // A bound line's reading stopped before its break (a control byte); a refusal may have passed it.
      int stop = bound ? json.pos() : start;
      int end = lineEnd(stop);
      int next = end + 1;
      if (end < limit && buf[end] == '\r' && next == limit && !eof || end == limit && !eof) {
        // the line, or its CR LF, goes on in the next block: read the line again once it is in
        fill();
        continue;
      }
      if (end < limit && buf[end] == '\r' && next < limit && buf[next] == '\n') {
        next++;
      }
      if (bound && stop == end) {
        pos = Math.min(next, limit);
        boundFromBytes++;
        return line.item(reader, ++lineNumber);
      }
      String text = text(start, end);
      pos = Math.min(next, limit);
      long number = ++lineNumber;
      if (text == null) {
        return new Malformed(number, "not UTF-8: byte " + (badByte + 1) + " of the line");
      }
      if (!text.isBlank()) {
        return reader.parseLine(number, text);
      }
    }
  }

  /** The first CR or LF at or after {@code i}; {@code limit} when the data ends first. */
  private int lineEnd(int i) {
    byte[] b = buf;
    byte c;
    while ((c = b[i]) != '\n' && c != '\r') {
      i++;
    }
    return i;
  }

  /**
   * The line {@code [from, to)} as text: ASCII as is, anything else through a strict UTF-8 decoder;
   * null when it is not UTF-8, with {@link #badByte} the index in the line of its first bad byte.
   */
  private String text(int from, int to) {
    for (int i = from; i < to; i++) {
      if (buf[i] < 0) {
        ByteBuffer bytes = ByteBuffer.wrap(buf, from, to - from);
        CharBuffer chars = CharBuffer.allocate(to - from);
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder();
        CoderResult result = decoder.decode(bytes, chars, true);
        if (result.isError()) {
          badByte = bytes.position() - from;
          return null;
        }
        decoder.flush(chars);
        return chars.flip().toString();
      }
    }
    return new String(buf, from, to - from, StandardCharsets.ISO_8859_1);
  }

  /**
   * Moves the unread data to the front and reads more after it, growing the buffer when one line
   * fills it; false when there is nothing left to read.
   */
  private boolean fill() throws IOException {
    if (eof) {
      return pos < limit;
    }
    int unread = limit - pos;
    if (pos > 0) {
      System.arraycopy(buf, pos, buf, 0, unread);
    } else if (unread == buf.length - PAD) {
      buf = Arrays.copyOf(buf, 2 * unread + PAD); // a line longer than the block
    }
    pos = 0;
    limit = unread;
    int n = in.read(buf, limit, buf.length - PAD - limit);
    if (n < 0) {
      eof = true;
    } else {
      limit += n;
    }
    buf[limit] = '\n';
    return pos < limit;
  }

  @Override
  public void close() throws IOException {
    in.close();
  }
}
