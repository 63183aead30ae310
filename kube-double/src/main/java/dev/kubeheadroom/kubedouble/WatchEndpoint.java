package dev.kubeheadroom.kubedouble;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.mockwebserver.crud.AttributeSet;
import io.fabric8.mockwebserver.http.MockResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * {@code GET ...?watch=true}, answered as kube-apiserver's watch cache does
 * ({@code staging/src/k8s.io/apiserver/pkg/storage/cacher/cacher.go} {@code Watch},
 * {@code watch_cache.go} {@code getAllEventsSinceLocked}):
 * <ul>
 *   <li>{@code resourceVersion} absent, "" or "0": ADDED for every selected object, then live;
 *   <li>{@code resourceVersion=X}: every retained change after X the watch selects, then live; X
 *       older than the history: one ERROR event (Status 410 Expired) and the watch ends;
 *   <li>{@code allowWatchBookmarks=true}: periodic BOOKMARK events;
 *   <li>{@code timeoutSeconds}: the watch ends cleanly after it (capped by the server's limit).
 * </ul>
 * Must be called under the dispatcher's read lock, so the initial state and the history agree.
 */
final class WatchEndpoint {
  private final Function<String, MockResponse> stockList;
  private final Function<String, AttributeSet> attributes;
  private final Watches watches;

  WatchEndpoint(Function<String, MockResponse> stockList, Function<String, AttributeSet> attributes,
      Watches watches) {
    this.stockList = stockList;
    this.attributes = attributes;
    this.watches = watches;
  }

  MockResponse watch(ApiRequest api) {
    String listPath = ListPager.keeping(api.path(), Set.of("labelSelector"));
    WatchFilter filter = new WatchFilter(attributes.apply(listPath),
        FieldSelector.parse(api.query().getOrDefault("fieldSelector", "")));
    String resource = resourcePath(api);
    String version = api.query().getOrDefault("resourceVersion", "");
    boolean bookmarks = "true".equals(api.query().get("allowWatchBookmarks"));
    long timeoutSeconds = ListPager.revision(api.query().getOrDefault("timeoutSeconds", "0"));
    WatchSession session;
    if (version.isEmpty() || version.equals("0") || "true".equals(api.query().get("sendInitialEvents"))) {
      ObjectNode list = WatchFilter.read(stockList.apply(listPath).getBody().readUtf8());
      long at = list.path("metadata").path("resourceVersion").asLong(watches.revision());
      session = watches.fromState(filter, resource, at, initialEvents(list, filter), bookmarks, timeoutSeconds,
          "true".equals(api.query().get("sendInitialEvents")));
    } else {
      session = watches.resume(filter, resource, ListPager.revision(version), bookmarks, timeoutSeconds);
    }
    return new MockResponse().withWebSocketUpgrade(session);
  }

  /** The synthetic ADDED events of a watch from the current state, in key order. */
  private static List<String> initialEvents(ObjectNode list, WatchFilter filter) {
    TreeMap<String, String> selected = new TreeMap<>();
    for (JsonNode item : list.path("items")) {
      if (filter.fields().matches(item)) {
        JsonNode meta = item.path("metadata");
        selected.put(Watches.key(meta.path("namespace").asText(""), meta.path("name").asText("")),
            WatchFilter.event("ADDED", item.toString()));
      }
    }
    return new ArrayList<>(selected.values());
  }

  /** {@code group/version/resource}: which kind of object a watch or a write concerns. */
  static String resourcePath(ApiRequest api) {
    return api.group() + "/" + api.version() + "/" + api.resource();
  }
}
