package dev.kubeheadroom.pipeline;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpsExchange;
import dev.kubeheadroom.schemas.JsonCodec;
import dev.kubeheadroom.schemas.NamespaceInfo;
import dev.kubeheadroom.topology.LiveBooking;
import dev.kubeheadroom.topology.LiveBookings;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * {@code GET /bookings?namespace=NS&name=POD}: the live booking of the pod's node, read from the
 * running topology's stores ({@link LiveBookings}, interactive queries), with the config and the
 * namespaces it is decided with, as one {@link LiveBooking} JSON document. {@code explain --live}
 * renders it exactly as a replay's explanation.
 *
 * <p>Any instance answers for any pod (topology DESIGN.md, "Live bookings"): from its own stores when it
 * runs the node's task; otherwise it asks the node's active instance ({@code queryMetadataForKey})
 * and, when that one does not answer, answers from its own standby copy with the copy's lag; and
 * when it holds no copy, it asks every other advertised instance and prefers an active answer to a
 * standby's. A forwarded request ({@link PeerBookings#FORWARDED}) is answered from this
 * instance's stores or 404, never forwarded again. 404: no instance holds the pod; 502: some did
 * not answer and none that did holds it; 503: this instance's stores cannot answer now.
 */
public final class BookingEndpoint implements HttpHandler {
  public static final String PATH = "/bookings";

  private final LiveBookings bookings;
  private final PeerBookings peers = new PeerBookings();

  public BookingEndpoint(LiveBookings bookings) {
    this.bookings = bookings;
  }

  /** One answer: a status, its body, and the standby lag header when read from a standby. */
  private record Answer(int status, String contentType, byte[] body, Long standbyLag) {
    static Answer text(int status, String line) {
      return new Answer(status, "text/plain; charset=utf-8", (line + "\n").getBytes(StandardCharsets.UTF_8), null);
    }

    static Answer relayed(PeerBookings.Reply reply) {
      return new Answer(200, "application/json", reply.body(), reply.standbyLag());
    }
  }

  @Override
  public void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      if (!exchange.getRequestURI().getPath().equals(PATH) || !exchange.getRequestMethod().equals("GET")) {
        respond(exchange, Answer.text(404, "not found"));
        return;
      }
      Map<String, String> query = query(exchange.getRequestURI().getRawQuery());
      Request request = new Request(query.getOrDefault("namespace", ""), query.getOrDefault("name", ""),
          exchange.getRequestHeaders().getFirst("Authorization"),
          exchange.getRequestHeaders().containsKey(PeerBookings.FORWARDED),
          exchange instanceof HttpsExchange ? "https" : "http");
      Answer answer;
      try {
        answer = answer(request);
      } catch (RuntimeException e) { // rebalancing, not running: the caller falls back to a replay
        answer = Answer.text(503, "the topology cannot answer now: " + e.getMessage());
      }
      respond(exchange, answer);
    }
  }

  /** @param scheme how this server is reached, and so every instance (they share their flags) */
  private record Request(String namespace, String name, String authorization, boolean forwarded, String scheme) {
    String pod() {
      return namespace + "/" + name;
    }
  }

  private Answer answer(Request request) {
    Optional<LiveBookings.Located> here = bookings.locate(request.namespace(), request.name());
    if (here.isPresent() && here.get().active()) {
      return local(here.get(), null);
    }
    if (request.forwarded()) {
      return here.map(h -> local(h, bookings.lag(h.partition())))
          .orElseGet(() -> Answer.text(404, "pod " + request.pod() + " is on none of this instance's nodes"));
    }
    if (here.isPresent()) { // a standby copy here: the active instance's answer is fresher
      Optional<String> active = bookings.owners(here.get().node()).active().filter(h -> !h.equals(bookings.self()));
      if (active.isPresent()) {
        PeerBookings.Reply reply = peers.ask(active.get(), request.scheme(), request.namespace(), request.name(),
            request.authorization(), bookings.self()).join();
        if (reply.ok()) {
          return Answer.relayed(reply);
        }
      }
      return local(here.get(), bookings.lag(here.get().partition()));
    }
    return fromOthers(request);
  }

  /** No copy here: every other advertised instance is asked; an active answer wins, else the freshest standby. */
  private Answer fromOthers(Request request) {
    List<String> others = bookings.others();
    if (others.isEmpty()) {
      return Answer.text(404, "pod " + request.pod() + " is on none of this instance's nodes, and no other"
          + " instance advertises itself (--application-server)");
    }
    List<PeerBookings.Reply> replies = peers.askAll(others, request.scheme(), request.namespace(), request.name(),
        request.authorization(), bookings.self());
    Optional<PeerBookings.Reply> best = replies.stream().filter(PeerBookings.Reply::ok)
        .min(Comparator.comparingLong(r -> r.standbyLag() == null ? -1 : r.standbyLag()));
    if (best.isPresent()) {
      return Answer.relayed(best.get());
    }
    List<PeerBookings.Reply> failed = replies.stream().filter(r -> r.status() != 404).toList();
    if (failed.isEmpty()) {
      return Answer.text(404, "pod " + request.pod() + " is on none of the topology's " + (others.size() + 1)
          + " instances' nodes");
    }
    if (failed.stream().allMatch(r -> r.status() == 401 || r.status() == 403)) {
      return Answer.text(failed.get(0).status(), "forwarded with the caller's token: "
          + failed.stream().map(PeerBookings.Reply::describe).collect(Collectors.joining(", ")));
    }
    return Answer.text(502, "pod " + request.pod() + " is not on this instance's nodes, and "
        + failed.stream().map(PeerBookings.Reply::describe).collect(Collectors.joining(", ")));
  }

  /** This instance's copy; {@code standbyLag} null when it is the active one. */
  private Answer local(LiveBookings.Located here, Long standbyLag) {
    Map<String, NamespaceInfo> namespaces = new TreeMap<>();
    here.booking().pods().values().forEach(e -> {
      NamespaceInfo info = bookings.namespace(e.pod().namespace());
      if (info != null) {
        namespaces.put(e.pod().namespace(), info);
      }
    });
    LiveBooking answer = new LiveBooking(here.uid(), here.booking(), bookings.config(), namespaces,
        bookings.self(), standbyLag);
    return new Answer(200, "application/json", JsonCodec.encode(answer), standbyLag);
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

  private static void respond(HttpExchange exchange, Answer answer) throws IOException {
    exchange.getResponseHeaders().set("Content-Type", answer.contentType());
    if (answer.standbyLag() != null) {
      exchange.getResponseHeaders().set(PeerBookings.STANDBY_LAG, Long.toString(answer.standbyLag()));
    }
    exchange.sendResponseHeaders(answer.status(), answer.body().length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(answer.body());
    }
  }
}
