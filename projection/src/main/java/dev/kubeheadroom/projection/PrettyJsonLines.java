package dev.kubeheadroom.projection;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A watch log as {@code kubectl get pods -w -o json} prints it, as the one-object-per-line form the
 * readers take: kubectl writes each object pretty-printed over many lines, a line holding only
 * {@code {}} first, and concatenates them. Such an object becomes one line followed by as many
 * blank lines as it spanned, so every later line keeps its number (blank lines are counted and
 * skipped) and a malformed object is named by the line it starts on. Every other line passes
 * through untouched, so a log in the usual form reads exactly as before.
 *
 * <p>An object without {@code type} and {@code object} but with a {@code kind} (kubectl without
 * {@code --output-watch-events}) is an upsert: it reads as {@code {"type":"MODIFIED","object":...}}.
 * kubectl then does not say which objects were deleted; {@code --output-watch-events} does.
 *
 * <p>An object whose braces never close (a cut stream) ends at the next line holding only
 * {@code {}} at its start, or at the end of the input, and is then malformed as usual.
 */
public final class PrettyJsonLines extends InputStream {
  private static final byte[] NONE = new byte[0];

  private final InputStream in;
  private byte[] buf = new byte[1 << 16];
  private int pos;
  private int limit;
  private boolean eof;
  private boolean atLineStart = true;
  /** A joined object and its blank lines, served before any more input. */
  private byte[] joined = NONE;
  private int joinedPos;

  public PrettyJsonLines(InputStream in) {
    this.in = in;
  }

  @Override
  public int read() throws IOException {
    byte[] one = new byte[1];
    return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    if (len == 0) {
      return 0;
    }
    while (true) {
      if (joinedPos < joined.length) {
        int n = Math.min(len, joined.length - joinedPos);
        System.arraycopy(joined, joinedPos, b, off, n);
        joinedPos += n;
        return n;
      }
      if (pos == limit && !fill()) {
        return -1;
      }
      if (atLineStart && opensObject()) {
        joined = join();
        joinedPos = 0;
        continue;
      }
      int n = Math.min(len, limit - pos);
      int lf = indexOf((byte) '\n', pos, pos + n);
      if (lf >= 0) {
        n = lf + 1 - pos;
      }
      System.arraycopy(buf, pos, b, off, n);
      pos += n;
      atLineStart = lf >= 0;
      return n;
    }
  }

  /** Whether the line at {@code pos} holds only {@code {}} (blanks around it): an object kubectl pretty-printed. */
  private boolean opensObject() throws IOException {
    int k = 0;
    int c;
    while ((c = peek(k)) == ' ' || c == '\t') {
      k++;
    }
    if (c != '{') {
      return false;
    }
    k++;
    while ((c = peek(k)) == ' ' || c == '\t' || c == '\r') {
      k++;
    }
    return c == '\n' || c < 0;
  }

  /** The byte {@code k} after {@code pos}, reading more as needed; -1 at the end of input. */
  private int peek(int k) throws IOException {
    while (pos + k >= limit) {
      if (!fill()) {
        return -1;
      }
    }
    return buf[pos + k] & 0xff;
  }

  /** Reads one pretty-printed object from the line at {@code pos}: its lines joined, then its blank lines. */
  private byte[] join() throws IOException {
    ByteArrayOutputStream text = new ByteArrayOutputStream();
    int lines = 0;
    int depth = 0;
    boolean inString = false;
    boolean escaped = false;
    do {
      if (lines > 0 && buf[pos] == '{' && opensObject()) {
        break; // the next object starts: this one was cut
      }
      int end = lineEnd();
      for (int i = pos; i < end; i++) {
        byte c = buf[i];
        if (escaped) {
          escaped = false;
        } else if (inString) {
          escaped = c == '\\';
          inString = c != '"';
        } else if (c == '"') {
          inString = true;
        } else if (c == '{' || c == '[') {
          depth++;
        } else if (c == '}' || c == ']') {
          depth--;
        }
      }
      int contentEnd = end > pos && buf[end - 1] == '\r' ? end - 1 : end;
      text.write(buf, pos, contentEnd - pos);
      text.write(' ');
      lines++;
      pos = Math.min(end + 1, limit);
    } while (depth > 0 && (pos < limit || fill()));
    atLineStart = true;
    byte[] object = upsert(text.toByteArray());
    byte[] out = Arrays.copyOf(object, object.length + lines);
    Arrays.fill(out, object.length, out.length, (byte) '\n');
    return out;
  }

  /** kubectl's bare object as a MODIFIED event; anything else as it is. */
  private static byte[] upsert(byte[] object) {
    JsonNode tree;
    try {
      tree = Mapper.JSON.readTree(object);
    } catch (IOException e) {
      return object; // malformed: the reader names it
    }
    if (tree == null || !tree.isObject() || tree.has("type") || tree.has("object") || !tree.has("kind")) {
      return object;
    }
    return ("{\"type\":\"MODIFIED\",\"object\":" + new String(object, StandardCharsets.UTF_8).strip() + "}")
        .getBytes(StandardCharsets.UTF_8);
  }

  /**
   * The mapper, made on the first pretty-printed object: a log in the usual form never needs it,
   * and creating one is a tenth of a short {@code simulate}'s start-up.
   */
  private static final class Mapper {
    static final ObjectMapper JSON = new ObjectMapper();
  }

  /** The LF ending the line at {@code pos}, with the whole line in the buffer; {@code limit} at the end of input. */
  private int lineEnd() throws IOException {
    int from = pos;
    while (true) {
      int lf = indexOf((byte) '\n', from, limit);
      if (lf >= 0) {
        return lf;
      }
      from = limit - pos;
      if (!fill()) {
        return limit;
      }
      from += pos;
    }
  }

  private int indexOf(byte c, int from, int to) {
    for (int i = from; i < to; i++) {
      if (buf[i] == c) {
        return i;
      }
    }
    return -1;
  }

  /** Keeps the unread data, moved to the front, and reads more after it; false at the end of input. */
  private boolean fill() throws IOException {
    if (eof) {
      return false;
    }
    int unread = limit - pos;
    if (unread == buf.length) {
      buf = Arrays.copyOf(buf, 2 * buf.length);
    } else if (pos > 0) {
      System.arraycopy(buf, pos, buf, 0, unread);
    }
    pos = 0;
    limit = unread;
    int n = in.read(buf, limit, buf.length - limit);
    if (n < 0) {
      eof = true;
      return false;
    }
    limit += n;
    return true;
  }

  @Override
  public void close() throws IOException {
    in.close();
  }
}
