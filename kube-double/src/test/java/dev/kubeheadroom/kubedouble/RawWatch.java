package dev.kubeheadroom.kubedouble;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.client.http.WebSocket;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.net.URI;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * A watch read off the wire, frame by frame: what the server sends, before any client library
 * filters it (fabric8 drops BOOKMARKs it did not ask for and reconnects by itself).
 */
final class RawWatch implements AutoCloseable {
  final List<JsonNode> events = new CopyOnWriteArrayList<>();
  final CompletableFuture<Integer> closed = new CompletableFuture<>();
  private final WebSocket socket;

  private RawWatch(ApiServerDouble api, String pathAndQuery) throws Exception {
    URI uri = URI.create(api.url() + pathAndQuery.replaceFirst("^/", ""));
    socket = api.client().getHttpClient().newWebSocketBuilder().uri(uri).buildAsync(new WebSocket.Listener() {
      @Override
      public void onMessage(WebSocket webSocket, String text) {
        events.add(Serialization.unmarshal(text, JsonNode.class));
        webSocket.request();
      }

      @Override
      public void onClose(WebSocket webSocket, int code, String reason) {
        webSocket.sendClose(code, reason);
        closed.complete(code);
      }

      @Override
      public void onError(WebSocket webSocket, Throwable error) {
        closed.completeExceptionally(error);
      }
    }).get(10, TimeUnit.SECONDS);
  }

  /** Opens {@code GET pathAndQuery} (which must include {@code watch=true}) as a WebSocket. */
  static RawWatch open(ApiServerDouble api, String pathAndQuery) throws Exception {
    return new RawWatch(api, pathAndQuery);
  }

  /** {@code TYPE name} of each event so far (BOOKMARKs as {@code BOOKMARK}). */
  List<String> summary() {
    return events.stream().map(e -> {
      String name = e.path("object").path("metadata").path("name").asText("");
      return name.isEmpty() ? e.path("type").asText() : e.path("type").asText() + " " + name;
    }).toList();
  }

  /** The events other than BOOKMARKs. */
  List<JsonNode> changes() {
    return events.stream().filter(e -> !"BOOKMARK".equals(e.path("type").asText())).toList();
  }

  static long revisionOf(JsonNode event) {
    return Long.parseLong(event.path("object").path("metadata").path("resourceVersion").asText());
  }

  @Override
  public void close() {
    socket.sendClose(1000, "test done");
  }
}
