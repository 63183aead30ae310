package dev.kubeheadroom.kubedouble;

import io.fabric8.mockwebserver.http.MockResponse;
import java.util.List;

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
  private final ListPager.Store store;
  private final Watches watches;

  WatchEndpoint(ListPager.Store store, Watches watches) {
    this.store = store;
    this.watches = watches;
  }

  MockResponse watch(ApiRequest api) {
    WatchFilter filter = ListPager.filter(store, api);
    String resource = resourcePath(api);
    String version = api.query().getOrDefault("resourceVersion", "");
    boolean bookmarks = "true".equals(api.query().get("allowWatchBookmarks"));
    boolean initialEvents = "true".equals(api.query().get("sendInitialEvents"));
    long timeoutSeconds = ListPager.revision(api.query().getOrDefault("timeoutSeconds", "0"));
    WatchSession session;
    if (version.isEmpty() || version.equals("0") || initialEvents) {
      List<String> added = ListPager.selected(store, filter, false).values().stream()
          .map(object -> WatchFilter.event("ADDED", object)).toList();
      session = watches.fromState(filter, resource, watches.revision(), added, bookmarks, timeoutSeconds, initialEvents);
    } else {
      session = watches.resume(filter, resource, ListPager.revision(version), bookmarks, timeoutSeconds);
    }
    return new MockResponse().withWebSocketUpgrade(session);
  }

  /** {@code group/version/resource}: which kind of object a watch or a write concerns. */
  static String resourcePath(ApiRequest api) {
    return api.group() + "/" + api.version() + "/" + api.resource();
  }
}
