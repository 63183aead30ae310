package dev.kubeheadroom.kubedouble;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.http.Response;
import io.fabric8.mockwebserver.http.WebSocket;
import io.fabric8.mockwebserver.http.WebSocketListener;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.function.Consumer;

/**
 * One open watch (a WebSocket): the events it owes its client, in revision order. Events that
 * arrive before the socket opens are held and sent on open. Sending never throws into the writer
 * that produced the event: a watch that is closing simply stops receiving.
 */
final class WatchSession extends WebSocketListener {
  /** Normal closure: the watch ended as the server meant it to (timeout, or after an ERROR). */
  static final int CLOSE_NORMAL = 1000;

  private final WatchFilter filter;
  private final boolean bookmarks;
  private final String resource;
  private final Consumer<WatchSession> onEnd;
  private final List<String> held = new ArrayList<>();
  private WebSocket socket;
  private boolean ending;
  private boolean ended;
  private long revision;
  private ScheduledFuture<?> timeout;

  /**
   * @param revision the revision the watch starts at (events at or below it are not sent)
   * @param resource the watched {@code group/version/resource}
   * @param onEnd told once when the watch is over, whoever ended it
   */
  WatchSession(WatchFilter filter, String resource, boolean bookmarks, long revision, Consumer<WatchSession> onEnd) {
    this.filter = filter;
    this.resource = resource;
    this.bookmarks = bookmarks;
    this.revision = revision;
    this.onEnd = onEnd;
  }

  String resource() {
    return resource;
  }

  WatchFilter filter() {
    return filter;
  }

  boolean wantsBookmarks() {
    return bookmarks;
  }

  synchronized void timeout(ScheduledFuture<?> timeout) {
    this.timeout = timeout;
  }

  /** Sends the event this watch owes for {@code change}, if any. */
  synchronized void deliver(StoredChange change) {
    if (change.revision() <= revision) {
      return;
    }
    revision = change.revision();
    String event = filter.eventFor(change);
    if (event != null) {
      send(event);
    }
  }

  /** An event that carries no change of its own (the synthetic ADDED of a watch from "now"). */
  synchronized void sendInitial(String event) {
    send(event);
  }

  /**
   * A BOOKMARK at {@code at} (the store's revision, never below what was sent): the object is
   * the watched kind with only {@code metadata.resourceVersion}, as
   * {@code cacher.go} ({@code dispatchEvent} of a bookmark) sends it. Clients decode it by kind
   * (fabric8 ends an informer on an object it cannot decode), so none is sent while the kind is
   * unknown ({@link Kind#UNKNOWN}: nothing of this resource was ever written).
   */
  synchronized void bookmark(long at, Kind kind, boolean initialEventsEnd) {
    if (!bookmarks || kind.equals(Kind.UNKNOWN)) {
      return;
    }
    revision = Math.max(revision, at);
    ObjectNode object = Serialization.jsonMapper().createObjectNode();
    object.put("kind", kind.kind()).put("apiVersion", kind.apiVersion());
    ObjectNode meta = object.putObject("metadata").put("resourceVersion", String.valueOf(revision));
    if (initialEventsEnd) {
      meta.putObject("annotations").put("k8s.io/initial-events-end", "true");
    }
    send(WatchFilter.event("BOOKMARK", object.toString()));
  }

  /** Sends one ERROR event carrying {@code status} and ends the watch, as the server does. */
  synchronized void fail(ApiError status) {
    send(WatchFilter.event("ERROR", status.toJson()));
    end();
  }

  /** Ends the watch cleanly (a server-side timeout, or the server going away). */
  synchronized void end() {
    ending = true;
    if (socket != null) {
      closeSocket();
    }
  }

  @Override
  public void onOpen(WebSocket webSocket, Response response) {
    synchronized (this) {
      socket = webSocket;
      held.forEach(this::sendNow);
      held.clear();
      if (ending) {
        closeSocket();
      }
    }
  }

  @Override
  public void onClosing(WebSocket webSocket, int code, String reason) {
    webSocket.close(code, reason);
    finished();
  }

  @Override
  public void onClosed(WebSocket webSocket, int code, String reason) {
    finished();
  }

  @Override
  public void onFailure(WebSocket webSocket, Throwable t, Response response) {
    webSocket.close(CLOSE_NORMAL, String.valueOf(t.getMessage()));
    finished();
  }

  /** A kind and its apiVersion, e.g. {@code Pod v1}. */
  record Kind(String kind, String apiVersion) {
    static final Kind UNKNOWN = new Kind("", "");
  }

  private void send(String event) {
    if (ended || (ending && socket != null)) {
      return;
    }
    if (socket == null) {
      held.add(event);
    } else {
      sendNow(event);
    }
  }

  private void sendNow(String event) {
    try {
      socket.send(event);
    } catch (RuntimeException closing) {
      // the client went away mid-send; onClosed/onFailure will end the session
    }
  }

  private void closeSocket() {
    try {
      socket.close(CLOSE_NORMAL, "");
    } catch (RuntimeException alreadyClosed) {
      // nothing left to close
    }
    finished();
  }

  private void finished() {
    boolean first;
    synchronized (this) {
      first = !ended;
      ended = true;
      held.clear();
      if (timeout != null) {
        timeout.cancel(false);
      }
    }
    if (first) {
      onEnd.accept(this);
    }
  }
}
