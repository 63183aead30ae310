package dev.kubeheadroom.pipeline;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import dev.kubeheadroom.schemas.JsonCodec;
import dev.kubeheadroom.schemas.NamespaceInfo;
import dev.kubeheadroom.topology.LiveBooking;
import dev.kubeheadroom.topology.LiveBookings;
import dev.kubeheadroom.topology.booking.NodeBooking;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * {@code GET /bookings?namespace=NS&name=POD}: the live booking of the pod's node, read from the
 * running topology's stores ({@link LiveBookings}, interactive queries), with the config and the
 * namespaces it is decided with, as one {@link LiveBooking} JSON document. {@code explain --live}
 * renders it exactly as a replay's explanation. 404: no such pod on this instance's nodes;
 * 421: another instance owns the node (its host in the body); 503: the topology is not running.
 */
public final class BookingEndpoint implements HttpHandler {
  public static final String PATH = "/bookings";

  private final LiveBookings bookings;

  public BookingEndpoint(LiveBookings bookings) {
    this.bookings = bookings;
  }

  @Override
  public void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      if (!exchange.getRequestURI().getPath().equals(PATH) || !exchange.getRequestMethod().equals("GET")) {
        respond(exchange, 404, "not found\n");
        return;
      }
      Map<String, String> query = query(exchange.getRequestURI().getRawQuery());
      String namespace = query.getOrDefault("namespace", "");
      String name = query.getOrDefault("name", "");
      Optional<LiveBookings.Located> where;
      Optional<NodeBooking> booking;
      try {
        where = bookings.locate(namespace, name);
        if (where.isEmpty()) {
          respond(exchange, 404, "pod " + namespace + "/" + name + " is on none of this instance's nodes\n");
          return;
        }
        String node = where.get().node();
        if (bookings.owner(node) instanceof LiveBookings.Owner.Remote remote) {
          respond(exchange, 421, "node " + node + " is owned by " + remote.host() + "\n");
          return;
        }
        booking = bookings.booking(node, where.get().partition());
      } catch (RuntimeException e) { // rebalancing, not running: the caller falls back to a replay
        respond(exchange, 503, "the topology cannot answer now: " + e.getMessage() + "\n");
        return;
      }
      if (booking.isEmpty()) {
        respond(exchange, 503, "the topology cannot answer now\n");
        return;
      }
      Map<String, NamespaceInfo> namespaces = new TreeMap<>();
      booking.get().pods().values().forEach(e -> {
        NamespaceInfo info = bookings.namespace(e.pod().namespace());
        if (info != null) {
          namespaces.put(e.pod().namespace(), info);
        }
      });
      LiveBooking answer = new LiveBooking(where.get().uid(), booking.get(), bookings.config(), namespaces);
      byte[] body = JsonCodec.encode(answer);
      exchange.getResponseHeaders().set("Content-Type", "application/json");
      exchange.sendResponseHeaders(200, body.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    }
  }

  private static Map<String, String> query(String raw) {
    Map<String, String> out = new HashMap<>();
    if (raw == null) {
      return out;
    }
    for (String pair : raw.split("&")) {
      int eq = pair.indexOf('=');
      if (eq > 0) {
        out.put(URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
            URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
      }
    }
    return out;
  }

  private static void respond(HttpExchange exchange, int status, String text) throws IOException {
    byte[] body = text.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
    exchange.sendResponseHeaders(status, body.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(body);
    }
  }
}
