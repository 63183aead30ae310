package dev.kubeheadroom.projection;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.kubeheadroom.schemas.HeadroomKeys;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.LimitRange;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import java.io.BufferedReader;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * Reads the {@code simulate} watch-log format (docs/design/cli-contract.md): one JSON object per line,
 * {@code {"type": "ADDED|MODIFIED|DELETED", "at": "<RFC 3339>", "object": {...}}}. Blank lines are
 * skipped; a line without {@code at} takes the previous line's time (the start time, default the
 * epoch, before any line had one). A line that cannot be read becomes a {@link Malformed} item
 * with its line number and the reason; reading goes on.
 *
 * <p>Supported objects: {@code v1} Pod, Node, Namespace and LimitRange (bound to the fabric8
 * model classes), {@code kube-headroom.dev/*} HeadroomConfig and {@code autoscaling.k8s.io/*}
 * VerticalPodAutoscaler (as {@link GenericKubernetesResource}).
 *
 * <p>Each line is read once, streaming, and the {@code object}'s tokens bound straight into its
 * fabric8 class ({@link FullWatchLine}); {@link #forProjection} readers bind plain pods and nodes
 * with only the projected fields, from the log's bytes when given them. Not thread-safe (one
 * reader per log).
 */
public final class WatchLogReader implements Iterator<WatchLogItem>, Closeable {

  /** The text of the log; null when it is read as bytes. */
  private final BufferedReader in;
  /** The bytes of the log ({@link #forProjection(InputStream)}); null when it is read as text. */
  private final WatchLogBytes bytes;
  /** Pods and nodes bound with only the fields the projections read ({@link ProjectedFields}). */
  private final boolean projectedOnly;
  private Instant lastAt;
  /** The last {@code at} text parsed, and what it parsed to. */
  private String lastAtText;
  private Instant lastAtParsed;
  private long lineNumber;
  private WatchLogItem next;

  /** Reads {@code in}; lines before the first {@code at} get the epoch. */
  public WatchLogReader(BufferedReader in) {
    this(in, Instant.EPOCH);
  }

  /** Reads {@code in}; lines before the first {@code at} get {@code startTime}. */
  public WatchLogReader(BufferedReader in, Instant startTime) {
    this(in, startTime, false);
  }

  private WatchLogReader(BufferedReader in, Instant startTime, boolean projectedOnly) {
    if (in == null || startTime == null) {
      throw new IllegalArgumentException("reader and start time are required");
    }
    this.in = in;
    this.bytes = null;
    this.lastAt = startTime;
    this.projectedOnly = projectedOnly;
  }

  private WatchLogReader(WatchLogBytes bytes, boolean projectedOnly) {
    this.in = null;
    this.bytes = bytes;
    this.lastAt = Instant.EPOCH;
    this.projectedOnly = projectedOnly;
  }

  /**
   * A reader for callers that only project what they read ({@code simulate}, replay benchmarks):
   * a Pod or Node in the plain shape the API server writes is bound with only the fields the
   * projections read ({@link ProjectedFields}: the same projection, several times cheaper); every
   * other line as {@link #parse} reads it. Lines before the first {@code at} get the epoch.
   */
  public static WatchLogReader forProjection(BufferedReader in) {
    return new WatchLogReader(in, Instant.EPOCH, true);
  }

  /**
   * {@link #forProjection} over a UTF-8 log's bytes: the same items, and a plain Pod or Node line
   * bound straight from its bytes ({@link WatchLogBytes}), without a {@code String} per line.
   * Lines before the first {@code at} get the epoch; closing the reader closes {@code in}.
   */
  public static WatchLogReader forProjection(InputStream in) {
    return forProjection(in, WatchLogBytes.DEFAULT_BLOCK);
  }

  /** As above, reading {@code blockBytes} at a time (tests move line ends across blocks with it). */
  public static WatchLogReader forProjection(InputStream in, int blockBytes) {
    return new WatchLogReader(new WatchLogBytes(in, blockBytes), true);
  }

  /** {@link #read}, with {@link #forProjection}'s binding, over the file's bytes. */
  public static Stream<WatchLogItem> readForProjection(Path file) throws IOException {
    return stream(forProjection(Files.newInputStream(file)));
  }

  /** Lines bound straight from their bytes so far (the rest were read as text); 0 when reading text. */
  public long linesBoundFromBytes() {
    return bytes == null ? 0 : bytes.boundFromBytes();
  }

  /**
   * Every item of a UTF-8 log file, lazily, each object bound whole; close the stream to close the
   * file. Split into lines from its bytes ({@link WatchLogBytes}), so a line that is not UTF-8 is a
   * {@link Malformed} line naming its first bad byte and reading goes on, as in {@code simulate}.
   */
  public static Stream<WatchLogItem> read(Path file) throws IOException {
    return stream(new WatchLogReader(new WatchLogBytes(Files.newInputStream(file), WatchLogBytes.DEFAULT_BLOCK), false));
  }

  /** Every item of {@code in}, lazily; closing the stream closes {@code in}. */
  public static Stream<WatchLogItem> stream(BufferedReader in) {
    return stream(new WatchLogReader(in));
  }

  /** Every item of {@code reader}, lazily; closing the stream closes the reader. */
  public static Stream<WatchLogItem> stream(WatchLogReader reader) {
    return StreamSupport.stream(
            Spliterators.spliteratorUnknownSize(reader, Spliterator.ORDERED | Spliterator.NONNULL),
            false)
        .onClose(reader::closeQuietly);
  }

  @Override
  public boolean hasNext() {
    if (next != null) {
      return true;
    }
    try {
      if (bytes != null) {
        next = bytes.next(this);
        return next != null;
      }
      String line;
      while ((line = in.readLine()) != null) {
        lineNumber++;
        if (!line.isBlank()) {
          next = parseLine(lineNumber, line);
          return true;
        }
      }
      return false;
    } catch (IOException e) {
      throw new UncheckedIOException("watch log, after line " + (bytes != null ? bytes.lineNumber() : lineNumber), e);
    }
  }

  @Override
  public WatchLogItem next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    WatchLogItem item = next;
    next = null;
    return item;
  }

  /** One non-blank line as this reader reads them: for projection only, or bound whole. */
  WatchLogItem parseLine(long number, String line) {
    return projectedOnly ? parseForProjection(number, line) : parse(number, line);
  }

  /** Whether a plain Pod or Node line may be bound with only the fields the projections read. */
  boolean projectedOnly() {
    return projectedOnly;
  }

  /**
   * Parses one non-blank line as {@link #forProjection} does: a plain Pod or Node line bound with
   * only the fields the projections read, any other line as {@link #parse} reads it.
   */
  public WatchLogItem parseForProjection(long number, String line) {
    WatchLogItem lean = ProjectedWatchLine.parse(this, number, line);
    return lean != null ? lean : parse(number, line);
  }

  /**
   * Parses one non-blank line, updating the inherited time when the line has a valid {@code at}.
   * One streaming pass: the line's own fields and the object's {@code kind} and {@code
   * apiVersion} are read as they come, the object's tokens are buffered and bound into its fabric8
   * class from the buffer (no JSON tree in between: building it was a third of a replay's reading).
   */
  public WatchLogItem parse(long number, String line) {
    return FullWatchLine.parse(this, number, line);
  }

  /** Reads an object's tokens into its fabric8 class. */
  @FunctionalInterface
  interface Binder {
    HasMetadata bind(Class<? extends HasMetadata> target) throws IOException;
  }

  /** The item a line of these parts makes (null nodes: absent); shared by both parse paths. */
  WatchLogItem item(long number, JsonNode atNode, JsonNode typeNode, boolean hasObject, JsonNode kindNode,
      JsonNode apiVersionNode, Binder binder) {
    if (atNode != null && !atNode.isNull() && !atNode.isTextual()) {
      return new Malformed(number, "bad time: at must be an RFC 3339 string");
    }
    return item(number, text(atNode), text(typeNode), hasObject, text(kindNode), text(apiVersionNode), binder);
  }

  /** The item of a line read as bytes ({@link ProjectedByteLine}): its parts as strings, the object bound. */
  WatchLogItem item(long number, String at, String type, String kind, String apiVersion, HasMetadata object) {
    return item(number, at, type, true, kind, apiVersion, target -> object);
  }

  /** As above, with the line's {@code at} already read as an instant (its text would have parsed to it). */
  WatchLogItem item(long number, Instant at, String type, String kind, String apiVersion, HasMetadata object) {
    if (at.equals(WatchTime.GO_ZERO) || WatchTime.outOfRange(at) != null) {
      return item(number, at.toString(), type, true, kind, apiVersion, target -> object); // its rules
    }
    lastAt = at;
    return item(number, null, type, true, kind, apiVersion, target -> object);
  }

  private static String text(JsonNode node) {
    return node != null && node.isTextual() ? node.textValue() : null;
  }

  /**
   * The item a line of these parts makes: null is absent, or (type, kind, apiVersion) not a
   * string; {@code at} is a string when present (the callers refuse any other). Go's zero time is
   * absent; a time outside 1970-9999 makes the line malformed (no Kafka timestamp holds it).
   */
  private WatchLogItem item(long number, String atText, String typeText, boolean hasObject, String kindText,
      String apiVersionText, Binder binder) {
    Instant at = lastAt;
    if (atText != null) {
      if (atText.equals(lastAtText)) {
        at = lastAtParsed; // consecutive lines mostly share their time: parse it once
      } else {
        Instant parsed;
        try {
          parsed = WatchTime.parse(atText);
        } catch (DateTimeParseException e) {
          return new Malformed(number, "bad time \"" + oneLine(atText) + "\": not RFC 3339");
        }
        String outOfRange = WatchTime.outOfRange(parsed);
        if (outOfRange != null && !parsed.equals(WatchTime.GO_ZERO)) {
          return new Malformed(number, "bad time \"" + oneLine(atText) + "\": " + outOfRange);
        }
        at = parsed.equals(WatchTime.GO_ZERO) ? lastAt : parsed; // Go's "unset": the last line's time
        lastAtText = atText;
        lastAtParsed = at;
      }
      lastAt = at; // the next line without at takes this time, even if the rest of this one is bad
    }
    if (typeText == null) {
      return new Malformed(number, "missing type (ADDED, MODIFIED or DELETED)");
    }
    WatchEvent.Type type = switch (typeText) {
      case "ADDED" -> WatchEvent.Type.ADDED;
      case "MODIFIED" -> WatchEvent.Type.MODIFIED;
      case "DELETED" -> WatchEvent.Type.DELETED;
      default -> null;
    };
    if (type == null) {
      return new Malformed(number,
          "unknown type \"" + oneLine(typeText) + "\" (ADDED, MODIFIED or DELETED)");
    }
    if (!hasObject) {
      return new Malformed(number, "missing object");
    }
    if (kindText == null || kindText.isEmpty()) {
      return new Malformed(number, "object has no kind");
    }
    String kind = kindText;
    String apiVersion = apiVersionText == null ? "" : apiVersionText;
    Class<? extends HasMetadata> target = targetClass(apiVersion, kind);
    if (target == null) {
      return new Malformed(number, "unsupported kind " + oneLine(kind)
          + (apiVersion.isEmpty() ? " (no apiVersion)" : " (apiVersion " + oneLine(apiVersion) + ")"));
    }
    HasMetadata bound;
    try {
      bound = binder.bind(target);
    } catch (IOException | IllegalArgumentException e) {
      return new Malformed(number, "bad " + kind + ": "
          + (e instanceof JsonMappingException mapping ? BindError.describe(mapping) : detail(e)));
    }
    if (bound.getMetadata() == null || bound.getMetadata().getName() == null) {
      return new Malformed(number, kind + " has no metadata.name");
    }
    return new WatchEvent(number, type, at, bound);
  }

  /**
   * The same line read the way this reader read it before {@link #parse}: a JSON tree, then the
   * object's subtree bound into fabric8. Kept as the reference the property tests hold the lean
   * path to.
   */
  public WatchLogItem parseAsTree(long number, String line) {
    return FullWatchLine.parseAsTree(this, number, line);
  }

  /** The fabric8 class for an object, or null when the reader does not support it. */
  static Class<? extends HasMetadata> targetClass(String apiVersion, String kind) {
    switch (kind) {
      case "Pod":
        return "v1".equals(apiVersion) ? Pod.class : null;
      case "Node":
        return "v1".equals(apiVersion) ? Node.class : null;
      case "Namespace":
        return "v1".equals(apiVersion) ? Namespace.class : null;
      case "LimitRange":
        return "v1".equals(apiVersion) ? LimitRange.class : null;
      case "HeadroomConfig":
        return apiVersion.startsWith(HeadroomKeys.GROUP + "/") ? GenericKubernetesResource.class : null;
      case "VerticalPodAutoscaler":
        return apiVersion.startsWith(VpaProjection.GROUP + "/") ? GenericKubernetesResource.class : null;
      default:
        return null;
    }
  }

  /** A parse or bind failure in one line: Jackson's own message, without its source excerpt. */
  static String detail(Exception e) {
    return oneLine(e instanceof JsonProcessingException j ? j.getOriginalMessage() : e.getMessage());
  }

  static String oneLine(String s) {
    if (s == null) {
      return "";
    }
    String flat = s.replaceAll("\\s+", " ").trim();
    return flat.length() > 160 ? flat.substring(0, 157) + "..." : flat;
  }

  @Override
  public void close() throws IOException {
    source().close();
  }

  private Closeable source() {
    return bytes != null ? bytes : in;
  }

  private void closeQuietly() {
    try {
      source().close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
