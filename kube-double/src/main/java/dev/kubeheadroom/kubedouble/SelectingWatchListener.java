package dev.kubeheadroom.kubedouble;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.http.ByteString;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.mockwebserver.http.Response;
import io.fabric8.mockwebserver.http.WebSocket;
import io.fabric8.mockwebserver.http.WebSocketListener;
import java.util.HashSet;
import java.util.Set;

/**
 * Wraps the stock watch listener (which sees every object of the resource) and forwards only the
 * events a field-selected watch on a real API server sends: an object that starts matching arrives
 * as ADDED, one that stops matching as DELETED, and non-matching objects not at all.
 */
final class SelectingWatchListener extends WebSocketListener {
  private static final ObjectMapper JSON = Serialization.jsonMapper();

  private final WebSocketListener delegate;
  private final FieldSelector selector;
  private final Set<String> inSelection = new HashSet<>();
  private volatile Filtering socket;

  SelectingWatchListener(WebSocketListener delegate, FieldSelector selector) {
    this.delegate = delegate;
    this.selector = selector;
  }

  private WebSocket wrap(WebSocket raw) {
    Filtering current = socket;
    if (current == null || current.raw != raw) {
      current = new Filtering(raw);
      socket = current;
    }
    return current;
  }

  @Override
  public void onBeforeAccept(WebSocket webSocket, Response response) {
    delegate.onBeforeAccept(wrap(webSocket), response);
  }

  @Override
  public void onOpen(WebSocket webSocket, Response response) {
    delegate.onOpen(wrap(webSocket), response);
  }

  @Override
  public void onMessage(WebSocket webSocket, String text) {
    delegate.onMessage(wrap(webSocket), text);
  }

  @Override
  public void onMessage(WebSocket webSocket, ByteString bytes) {
    delegate.onMessage(wrap(webSocket), bytes);
  }

  @Override
  public void onMessage(WebSocket webSocket, byte[] bytes) {
    delegate.onMessage(wrap(webSocket), bytes);
  }

  @Override
  public void onClosing(WebSocket webSocket, int code, String reason) {
    delegate.onClosing(wrap(webSocket), code, reason);
  }

  @Override
  public void onClosed(WebSocket webSocket, int code, String reason) {
    delegate.onClosed(wrap(webSocket), code, reason);
  }

  @Override
  public void onFailure(WebSocket webSocket, Throwable t, Response response) {
    delegate.onFailure(wrap(webSocket), t, response);
  }

  /** Rewrites or drops each watch event on its way out. */
  private final class Filtering implements WebSocket {
    private final WebSocket raw;

    Filtering(WebSocket raw) {
      this.raw = raw;
    }

    @Override
    public RecordedRequest request() {
      return raw.request();
    }

    @Override
    public boolean send(String text) {
      String out = select(text);
      return out == null || raw.send(out);
    }

    @Override
    public boolean send(byte[] bytes) {
      String out = select(new String(bytes, java.nio.charset.StandardCharsets.UTF_8));
      return out == null || raw.send(out.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    @Override
    public boolean close(int code, String reason) {
      return raw.close(code, reason);
    }
  }

  /** The event to send in place of {@code text}, or null to drop it. */
  private synchronized String select(String text) {
    JsonNode event;
    try {
      event = JSON.readTree(text);
    } catch (Exception notJson) {
      return text;
    }
    JsonNode object = event.path("object");
    String type = event.path("type").asText("");
    if (!object.isObject() || !(type.equals("ADDED") || type.equals("MODIFIED") || type.equals("DELETED"))) {
      return text;
    }
    String key = object.path("metadata").path("namespace").asText("") + "/"
        + object.path("metadata").path("name").asText("");
    boolean was = inSelection.contains(key);
    boolean is = !type.equals("DELETED") && selector.matches(object);
    String sent;
    if (is) {
      inSelection.add(key);
      sent = was ? type : "ADDED";
    } else {
      inSelection.remove(key);
      if (!was) {
        return null;
      }
      sent = "DELETED";
    }
    if (sent.equals(type)) {
      return text;
    }
    ObjectNode rewritten = ((ObjectNode) event).deepCopy();
    rewritten.put("type", sent);
    return rewritten.toString();
  }
}
