package dev.kubeheadroom.kubedouble;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.mockwebserver.crud.AttributeSet;
import io.fabric8.mockwebserver.http.MockResponse;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

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

  private final Function<String, MockResponse> stockList;
  private final Function<String, AttributeSet> attributes;
  private final Watches watches;

  /**
   * @param stockList the CRUD mock's list of a path (current state, label selector applied)
   * @param attributes the CRUD mock's attributes of a path
   */
  ListPager(Function<String, MockResponse> stockList, Function<String, AttributeSet> attributes, Watches watches) {
    this.stockList = stockList;
    this.attributes = attributes;
    this.watches = watches;
  }

  MockResponse list(ApiRequest api) {
    String path = keeping(api.path(), Set.of("labelSelector"));
    MockResponse stock = stockList.apply(path);
    if (stock.code() != 200 || stock.getBody() == null) {
      return stock;
    }
    ObjectNode body = WatchFilter.read(stock.getBody().readUtf8());
    if (!(body.get("items") instanceof ArrayNode items)) {
      return stock.setBody(body.toString());
    }
    String fieldSelector = api.query().getOrDefault("fieldSelector", "");
    WatchFilter filter = new WatchFilter(attributes.apply(path), FieldSelector.parse(fieldSelector));
    TreeMap<String, JsonNode> state = new TreeMap<>();
    items.forEach(item -> {
      if (filter.fields().matches(item)) {
        state.put(key(api, item.path("metadata")), item);
      }
    });
    long at = body.path("metadata").path("resourceVersion").asLong(watches.revision());
    String start = "";
    String token = api.query().getOrDefault("continue", "");
    if (!token.isEmpty()) {
      ContinueToken asked = ContinueToken.decode(token);
      start = asked.start();
      if (asked.revision() >= 0) {
        if (asked.revision() < watches.horizon()) {
          return expiredContinue(asked);
        }
        at = rewind(api, state, filter, asked.revision());
      }
    } else if ("Exact".equals(api.query().get("resourceVersionMatch")) && api.query().containsKey("resourceVersion")) {
      at = rewind(api, state, filter, revision(api.query().get("resourceVersion")));
    }
    List<JsonNode> rest = new ArrayList<>(state.tailMap(start, true).values());
    long limit = revision(api.query().getOrDefault("limit", "0"));
    ObjectNode meta = body.putObject("metadata").put("resourceVersion", String.valueOf(at));
    if (limit > 0 && rest.size() > limit) {
      List<JsonNode> page = rest.subList(0, (int) limit);
      meta.put("continue", ContinueToken.after(at, key(api, page.get(page.size() - 1).path("metadata"))).encode());
      if (fieldSelector.isBlank() && api.query().getOrDefault("labelSelector", "").isBlank()) {
        meta.put("remainingItemCount", rest.size() - limit);
      }
      rest = page;
    }
    body.putArray("items").addAll(rest);
    return stock.setBody(body.toString());
  }

  /** Undoes, newest first, the retained changes after {@code revision}: the state at it. */
  private long rewind(ApiRequest api, Map<String, JsonNode> state, WatchFilter filter, long revision) {
    List<StoredChange> after = watches.since(revision);
    for (int i = after.size() - 1; i >= 0; i--) {
      StoredChange change = after.get(i);
      String key = api.namespace().isEmpty() ? Watches.key(change.namespace(), change.name()) : change.name();
      if (filter.passes(change.oldAttributes(), change.oldState())) {
        state.put(key, WatchFilter.read(change.oldState()));
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

  private static String key(ApiRequest api, JsonNode meta) {
    String name = meta.path("name").asText("");
    return api.namespace().isEmpty() ? Watches.key(meta.path("namespace").asText(""), name) : name;
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
