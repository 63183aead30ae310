package dev.kubeheadroom.schemas;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import com.fasterxml.jackson.annotation.JsonSetter;
import com.fasterxml.jackson.annotation.Nulls;
import java.util.List;

/**
 * The full set of live pod uids on a node, published after every ingest (re)start and resync, so
 * pods deleted while ingest was down are dropped downstream and state heals itself.
 *
 * <p>A node with many pods is synced in chunks, each a range of uids: the chunk lists the live
 * uids in {@code [from, until)} and says nothing of uids outside it (null bounds: open). Each
 * chunk stands alone — no reassembly, no state between chunks — and the chunks of one sync cover
 * every uid, so applying them all equals applying one whole sync; a whole sync is the one chunk
 * with both bounds open, and serializes as before (the bounds are omitted when null).
 *
 * @param from the smallest uid this sync speaks for (inclusive); null: from the start
 * @param until the uid this sync stops before (exclusive); null: to the end
 * @param epoch see {@link NodeEvent#epoch}
 */
public record NodeSync(
    String node,
    List<String> podUids,
    @JsonInclude(JsonInclude.Include.NON_NULL) String from,
    @JsonInclude(JsonInclude.Include.NON_NULL) String until,
    @JsonInclude(JsonInclude.Include.NON_DEFAULT) @JsonSetter(nulls = Nulls.AS_EMPTY) long epoch)
    implements NodeEvent {
  /**
   * A chunk's uid budget, in serialized bytes: far under Kafka's default {@code
   * max.request.size} (1 MiB), so a node of 20,000 pods takes 4 records, never one too large.
   */
  public static final int DEFAULT_CHUNK_BYTES = 256 * 1024;

  public NodeSync {
    Require.text(node, "node");
    podUids = Require.list(podUids).stream().sorted().toList();
    Require.nonNegative(epoch, "epoch");
    if (from != null && until != null && from.compareTo(until) >= 0) {
      throw new IllegalArgumentException("node sync range is empty: [" + from + ", " + until + ")");
    }
    for (String uid : podUids) {
      if (!covers(from, until, uid)) {
        throw new IllegalArgumentException("node sync lists " + uid + " outside [" + from + ", " + until + ")");
      }
    }
  }

  /** A whole sync: every uid on the node. */
  public NodeSync(String node, List<String> podUids) {
    this(node, podUids, null, null, 0);
  }

  /** A whole sync of a leadership's {@code epoch}. */
  public NodeSync(String node, List<String> podUids, long epoch) {
    this(node, podUids, null, null, epoch);
  }

  /** A chunk, unstamped. */
  public NodeSync(String node, List<String> podUids, String from, String until) {
    this(node, podUids, from, until, 0);
  }

  @Override
  public NodeSync withEpoch(long value) {
    return new NodeSync(node, podUids, from, until, value);
  }

  /** Whether this sync speaks for {@code uid}: a pod in range and not listed is gone. */
  public boolean covers(String uid) {
    return covers(from, until, uid);
  }

  private static boolean covers(String from, String until, String uid) {
    return (from == null || uid.compareTo(from) >= 0) && (until == null || uid.compareTo(until) < 0);
  }

  /**
   * The node's sync as chunks of at most about {@code maxBytes} of uids each, covering every uid
   * between them: one whole sync when it fits. Deterministic (the uids are sorted first).
   */
  public static List<NodeSync> chunks(String node, List<String> podUids, int maxBytes) {
    List<String> sorted = Require.list(podUids).stream().distinct().sorted().toList();
    List<NodeSync> out = new ArrayList<>();
    int start = 0;
    int bytes = 0;
    for (int i = 0; i < sorted.size(); i++) {
      int size = sorted.get(i).getBytes(StandardCharsets.UTF_8).length + 3; // quotes and comma
      if (i > start && bytes + size > maxBytes) {
        out.add(chunk(node, sorted, start, i));
        start = i;
        bytes = 0;
      }
      bytes += size;
    }
    out.add(chunk(node, sorted, start, sorted.size()));
    return List.copyOf(out);
  }

  /** uids [start, end) of {@code sorted}: the range runs from its first uid to the next chunk's. */
  private static NodeSync chunk(String node, List<String> sorted, int start, int end) {
    String from = start == 0 ? null : sorted.get(start);
    String until = end == sorted.size() ? null : sorted.get(end);
    return new NodeSync(node, sorted.subList(start, end), from, until);
  }
}
