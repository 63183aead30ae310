package dev.kubeheadroom.kubedouble;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.client.dsl.base.CustomResourceDefinitionContext;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Every open watch and the history they resume from. Each write is recorded here once, in
 * revision order (the dispatcher records under its write lock), and handed to every open watch
 * under this object's lock, so a watch sees changes in order and a bookmark never overtakes an
 * event. Lock order: this, then a session; a session never calls back into this lock.
 */
final class Watches implements AutoCloseable {
  /** Watch history kept (writes); kube-apiserver keeps a time-bounded window per resource. */
  static final int DEFAULT_HISTORY = 4096;
  /** The longest a watch stays open (kube-apiserver: 30-60 min, {@code --min-request-timeout}). */
  static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(5);
  /** How often watches that allow bookmarks get one (kube-apiserver: about once a minute). */
  static final Duration DEFAULT_BOOKMARK_INTERVAL = Duration.ofSeconds(1);

  private final WatchHistory history = new WatchHistory(DEFAULT_HISTORY);
  private final Set<WatchSession> sessions = ConcurrentHashMap.newKeySet();
  private final Map<String, WatchSession.Kind> kinds = new ConcurrentHashMap<>();
  private final ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor(runnable -> {
    Thread thread = new Thread(runnable, "kube-double-watch-timers");
    thread.setDaemon(true);
    return thread;
  });
  private volatile Duration timeout = DEFAULT_TIMEOUT;
  private ScheduledFuture<?> bookmarks;

  Watches() {
    bookmarkInterval(DEFAULT_BOOKMARK_INTERVAL);
  }

  // ---- settings -------------------------------------------------------------------------------

  void timeout(Duration timeout) {
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("watch timeout must be positive, got " + timeout);
    }
    this.timeout = timeout;
  }

  synchronized void bookmarkInterval(Duration interval) {
    if (interval.isNegative() || interval.isZero()) {
      throw new IllegalArgumentException("bookmark interval must be positive, got " + interval);
    }
    if (bookmarks != null) {
      bookmarks.cancel(false);
    }
    long millis = interval.toMillis();
    bookmarks = timers.scheduleAtFixedRate(this::sendBookmarks, millis, millis, TimeUnit.MILLISECONDS);
  }

  synchronized void historyLimit(int limit) {
    history.limit(limit);
  }

  // ---- the store's side -----------------------------------------------------------------------

  /** Records one write to {@code path} ({@code object}: its state) and sends it to the watches it concerns. */
  synchronized void record(String path, JsonNode object, StoredChange change) {
    String kind = object.path("kind").asText("");
    if (!kind.isEmpty()) {
      knowKind(WatchEndpoint.resourcePath(ApiRequest.parse("GET", path, null, null)), kind,
          object.path("apiVersion").asText(""));
    }
    history.record(change);
    sessions.forEach(session -> session.deliver(change));
  }

  /** What objects of {@code group/version/resource} are, for the BOOKMARKs of its watches. */
  void knowKind(String resourcePath, String kind, String apiVersion) {
    kinds.putIfAbsent(resourcePath, new WatchSession.Kind(kind, apiVersion));
  }

  void knowKinds(List<CustomResourceDefinitionContext> customResources) {
    customResources.forEach(crd -> knowKind(crd.getGroup() + "/" + crd.getVersion() + "/" + crd.getPlural(),
        crd.getKind(), crd.getGroup() + "/" + crd.getVersion()));
  }

  /** Forgets every change so far: a watch or a continue token from before now gets 410. */
  synchronized void compact(long revision) {
    history.compact(revision);
  }

  /** The highest revision recorded. */
  synchronized long revision() {
    return history.revision();
  }

  synchronized long horizon() {
    return history.horizon();
  }

  /** Retained changes after {@code from}, or 410 Expired (see {@link WatchHistory#since}). */
  synchronized List<StoredChange> since(long from) {
    return history.since(from);
  }

  // ---- the watches' side ----------------------------------------------------------------------

  /**
   * Opens a watch at {@code from}: first the retained changes after it that the watch selects,
   * then live ones. A {@code from} older than the history makes the watch send one ERROR 410 and
   * end ({@code cacher.go} {@code Watch}: "once we have passed authn/authz/admission [...] other
   * errors must fail with a watch event of type ERROR").
   *
   * @param timeoutSeconds the client's {@code timeoutSeconds}, 0 if none
   */
  synchronized WatchSession resume(WatchFilter filter, String resourcePath, long from, boolean bookmarks,
      long timeoutSeconds) {
    WatchSession session = newSession(filter, resourcePath, from, bookmarks);
    try {
      history.since(from).forEach(session::deliver);
    } catch (ApiError.Failure expired) {
      session.fail(expired.error());
      return session;
    }
    return register(session, timeoutSeconds);
  }

  /**
   * Opens a watch from the current state: {@code initial} (synthetic ADDED events, already
   * selected) then live changes after {@code at}. With {@code initialEventsEnd} (the client sent
   * {@code sendInitialEvents=true}) a bookmark annotated {@code k8s.io/initial-events-end} follows.
   */
  synchronized WatchSession fromState(WatchFilter filter, String resourcePath, long at, List<String> initial,
      boolean bookmarks, long timeoutSeconds, boolean initialEventsEnd) {
    WatchSession session = newSession(filter, resourcePath, at, bookmarks);
    initial.forEach(session::sendInitial);
    if (initialEventsEnd) {
      session.bookmark(at, kindOf(session), true);
    }
    return register(session, timeoutSeconds);
  }

  /** Ends every open watch, as a dropped connection or an API server restart would. */
  synchronized void dropAll() {
    sessions.forEach(WatchSession::end);
  }

  int open() {
    return sessions.size();
  }

  private WatchSession newSession(WatchFilter filter, String resourcePath, long from, boolean bookmarks) {
    return new WatchSession(filter, resourcePath, bookmarks, from, sessions::remove);
  }

  /**
   * Adds a live watch and schedules its server-side end: the client's {@code timeoutSeconds},
   * capped by the server's own limit ({@code handlers/get.go} {@code ListResource} closes a watch
   * after {@code timeoutSeconds}, or a random 1-2x {@code --min-request-timeout} without one).
   */
  private WatchSession register(WatchSession session, long timeoutSeconds) {
    sessions.add(session);
    Duration limit = timeout;
    Duration asked = timeoutSeconds > 0 ? Duration.ofSeconds(timeoutSeconds) : limit;
    long millis = (asked.compareTo(limit) < 0 ? asked : limit).toMillis();
    session.timeout(timers.schedule(session::end, millis, TimeUnit.MILLISECONDS));
    return session;
  }

  private synchronized void sendBookmarks() {
    long at = history.revision();
    sessions.forEach(session -> session.bookmark(at, kindOf(session), false));
  }

  private WatchSession.Kind kindOf(WatchSession session) {
    return kinds.getOrDefault(session.resource(), WatchSession.Kind.UNKNOWN);
  }

  @Override
  public void close() {
    dropAll();
    timers.shutdownNow();
  }

  static String key(String namespace, String name) {
    Objects.requireNonNull(name, "name");
    return namespace.isEmpty() ? name : namespace + "/" + name;
  }
}
