package dev.kubeheadroom.kubedouble;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.client.server.mock.KubernetesAttributesExtractor;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.crud.Attribute;
import io.fabric8.mockwebserver.crud.AttributeSet;
import io.fabric8.mockwebserver.http.MockResponse;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * LIST as etcd serves it ({@code staging/src/k8s.io/apiserver/pkg/storage/etcd3/store.go},
 * {@code GetList}): items in key order ({@code namespace/name}); with {@code limit}, at most that
 * many and a {@code continue} token naming the snapshot revision and the last key; every page of
 * one list is read at the first page's revision (a consistent snapshot, rebuilt here from the
 * watch history), and {@code metadata.remainingItemCount} is set when no selector filters. A token
 * older than the history is 410 Expired. Also applies {@code fieldSelector}.
 */
final class ListPager {
  /** {@code store.go}'s message for a compacted continue token. */
  static final String CONTINUE_EXPIRED = "The provided continue parameter is too old to display a consistent "
      + "list result. You can start a new list without the continue parameter, or use the continue token in "
      + "this response to retrieve the remainder of the results. Continuing with the provided token results "
      + "in an inconsistent list - objects that were created, modified, or deleted between the time the "
      + "first chunk was returned and now may show up in the list.";
  private static final ObjectMapper JSON = Serialization.jsonMapper();

  /** The store as lists and watches read it. */
  interface Store {
    /** The CRUD mock's attributes of a path (resource, namespace, name, label selector). */
    AttributeSet query(String path);

    /** The stored objects whose attributes match {@code query}. */
    List<Map.Entry<AttributeSet, String>> select(AttributeSet query);
  }

  private final Store store;
  private final Watches watches;
  private final Snapshots snapshots = new Snapshots();

  /** The state a paged list reads at {@code revision}: never changes (etcd's MVCC read at a revision). */
  private record Snapshot(long revision, TreeMap<String, String> state) {}

  /**
   * The last few paged lists' snapshots, by listed path and revision. Rebuilding the state (a
   * scan and a sort of every selected object) for each page made a paged list of 150,000 pods
   * cost 300 full sorts; the real server reads each page from etcd at the revision directly.
   */
  private static final class Snapshots {
    private static final int KEPT = 4;
    private final Map<String, Snapshot> byList = new java.util.LinkedHashMap<>(16, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<String, Snapshot> eldest) {
        return size() > KEPT;
      }
    };

    synchronized Snapshot get(String listed, long revision) {
      Snapshot s = byList.get(listed + "@" + revision);
      return s != null && s.revision() == revision ? s : null;
    }

    synchronized void put(String listed, Snapshot snapshot) {
      byList.put(listed + "@" + snapshot.revision(), snapshot);
    }
  }

  ListPager(Store store, Watches watches) {
    this.store = store;
    this.watches = watches;
  }

  MockResponse list(ApiRequest api) {
    String fieldSelector = api.query().getOrDefault("fieldSelector", "");
    String token = api.query().getOrDefault("continue", "");
    ContinueToken asked = token.isEmpty() ? null : ContinueToken.decode(token);
    if (asked != null && asked.revision() >= 0 && asked.revision() < watches.horizon()) {
      return expiredContinue(asked);
    }
    String listed = keeping(api.path(), Set.of("labelSelector", "fieldSelector"));
    Snapshot kept = asked == null ? null : snapshots.get(listed, asked.revision());
    if (kept != null) { // a later page of a list at a revision: read from that revision's snapshot
      return page(api, kept.state(), kept.revision(), asked.start(), fieldSelector);
    }
    WatchFilter filter = filter(store, api);
    TreeMap<String, String> state = selected(store, filter, !api.namespace().isEmpty());
    long at = watches.revision();
    String start = "";
    if (asked != null) {
      start = asked.start();
      if (asked.revision() >= 0) {
        at = rewind(api, state, filter, asked.revision());
      }
    } else if ("Exact".equals(api.query().get("resourceVersionMatch")) && api.query().containsKey("resourceVersion")) {
      at = rewind(api, state, filter, revision(api.query().get("resourceVersion")));
    }
    long limit = revision(api.query().getOrDefault("limit", "0"));
    if (limit > 0 && state.size() > limit) {
      snapshots.put(listed, new Snapshot(at, state));
    }
    return page(api, state, at, start, fieldSelector);
  }

  /** The page of {@code state} (the snapshot at revision {@code at}) from key {@code start} on. */
  private static MockResponse page(ApiRequest api, TreeMap<String, String> state, long at, String start,
      String fieldSelector) {
    SortedMap<String, String> rest = state.tailMap(start, true);
    long limit = revision(api.query().getOrDefault("limit", "0"));
    ObjectNode meta = JSON.createObjectNode().put("resourceVersion", String.valueOf(at));
    Collection<String> items = rest.values();
    if (limit > 0 && rest.size() > limit) {
      List<String> page = new ArrayList<>((int) limit);
      String lastKey = "";
      for (Map.Entry<String, String> item : rest.entrySet()) {
        if (page.size() == limit) {
          break;
        }
        page.add(item.getValue());
        lastKey = item.getKey();
      }
      meta.put("continue", ContinueToken.after(at, lastKey).encode());
      if (fieldSelector.isBlank() && api.query().getOrDefault("labelSelector", "").isBlank()) {
        meta.put("remainingItemCount", rest.size() - limit);
      }
      items = page;
    }
    String body = "{\"apiVersion\":\"v1\",\"kind\":\"List\",\"metadata\":" + meta + ",\"items\":["
        + String.join(",", items) + "]}";
    return new MockResponse().setResponseCode(200).setHeader("Content-Type", "application/json").setBody(body);
  }

  /** What a list or watch request selects: its path, label selector and field selector. */
  static WatchFilter filter(Store store, ApiRequest api) {
    return new WatchFilter(store.query(keeping(api.path(), Set.of("labelSelector"))),
        FieldSelector.parse(api.query().getOrDefault("fieldSelector", "")));
  }

  /**
   * The stored objects {@code filter} selects, as stored, by etcd key ({@code namespace/name}; in
   * a namespaced list only {@code name}, the part after the list's prefix).
   */
  static TreeMap<String, String> selected(Store store, WatchFilter filter, boolean namespaced) {
    TreeMap<String, String> out = new TreeMap<>();
    for (Map.Entry<AttributeSet, String> entry : store.select(filter.query())) {
      if (filter.fields().requirements().isEmpty() || filter.fields().matches(WatchFilter.read(entry.getValue()))) {
        String name = value(entry.getKey(), KubernetesAttributesExtractor.NAME);
        out.put(namespaced ? name : Watches.key(value(entry.getKey(), KubernetesAttributesExtractor.NAMESPACE), name),
            entry.getValue());
      }
    }
    return out;
  }

  private static String value(AttributeSet attributes, String key) {
    Attribute attribute = attributes.getAttribute(key);
    return attribute == null || attribute.getValues().isEmpty() ? "" : attribute.getValues().get(0).toString();
  }

  /** Undoes, newest first, the retained changes after {@code revision}: the state at it. */
  private long rewind(ApiRequest api, Map<String, String> state, WatchFilter filter, long revision) {
    List<StoredChange> after = watches.since(revision);
    for (int i = after.size() - 1; i >= 0; i--) {
      StoredChange change = after.get(i);
      String key = api.namespace().isEmpty() ? Watches.key(change.namespace(), change.name()) : change.name();
      if (filter.passes(change.oldAttributes(), change.oldState())) {
        state.put(key, change.oldState());
      } else {
        state.remove(key);
      }
    }
    return revision;
  }

  private static MockResponse expiredContinue(ContinueToken asked) {
    ObjectNode status = WatchFilter.read(WatchHistory.expired(CONTINUE_EXPIRED).toJson());
    status.putObject("metadata").put("continue", new ContinueToken(-1, asked.start()).encode());
    return new MockResponse().setResponseCode(410).setHeader("Content-Type", "application/json")
        .setBody(status.toString());
  }

  /** A non-negative number from the query; anything else is 400 as on the real server. */
  static long revision(String value) {
    try {
      long parsed = Long.parseLong(value);
      if (parsed >= 0) {
        return parsed;
      }
    } catch (NumberFormatException e) {
      // falls through to the 400
    }
    throw ApiError.badRequest("invalid value: " + value).asFailure();
  }

  /** {@code path} with only the named query parameters kept, each as sent. */
  static String keeping(String path, Set<String> kept) {
    int q = path.indexOf('?');
    if (q < 0) {
      return path;
    }
    StringBuilder query = new StringBuilder();
    for (String pair : path.substring(q + 1).split("&")) {
      String name = URLDecoder.decode(pair.split("=", 2)[0], StandardCharsets.UTF_8);
      if (!pair.isEmpty() && kept.contains(name)) {
        query.append(query.length() == 0 ? "?" : "&").append(pair);
      }
    }
    return path.substring(0, q) + query;
  }
}
