package dev.kubeheadroom.kubedouble;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.nio.charset.StandardCharsets;

/**
 * Recorded requests rewritten before the stock mock's handler sees them, so that it acts as
 * kube-apiserver does (or, for a body, so that it can read what the journal already read).
 */
final class RequestRewrites {
  private static final ObjectMapper JSON = Serialization.jsonMapper();

  private RequestRewrites() {}

  /**
   * A JSON merge patch applied here (RFC 7386: lists are replaced; the stock mock appends to
   * them, so a condition list would grow), handed on as a JSON patch setting {@code /status}.
   *
   * @param stored the object as stored now
   */
  static RecordedRequest asJsonPatch(RecordedRequest bare, ObjectNode stored) {
    ObjectNode merged = Patches.MERGE.apply(stored, Patches.MERGE.parse(bare.getUtf8Body()));
    ArrayNode ops = JSON.createArrayNode();
    ops.addObject().put("op", "add").put("path", "/status")
        .set("value", merged.path("status").isObject() ? merged.get("status") : JSON.createObjectNode());
    return new RecordedRequest(bare.getHttpVersion(), bare.method(), bare.getPath(),
        bare.getHeaders().newBuilder().set("Content-Type", "application/json-patch+json").build(),
        new Buffer(ops.toString().getBytes(StandardCharsets.UTF_8)));
  }

  /** {@code request} with {@code body}: reading a request's body drains its buffer. */
  static RecordedRequest withBody(RecordedRequest request, byte[] body) {
    return new RecordedRequest(request.getHttpVersion(), request.method(), request.getPath(), request.getHeaders(),
        new Buffer(body));
  }

  /**
   * The stock mock recognises a status write by {@code path.endsWith("/status")}, so a query
   * ({@code ?fieldManager=...}, which a real server accepts) would turn it into a write of the
   * whole object. Its parameters change nothing the mock models: drop them.
   */
  static RecordedRequest withoutQuery(RecordedRequest request) {
    String path = request.getPath();
    if (path.indexOf('?') < 0) {
      return request;
    }
    return new RecordedRequest(request.getHttpVersion(), request.method(), path.substring(0, path.indexOf('?')),
        request.getHeaders(), new Buffer(request.getUtf8Body().getBytes(StandardCharsets.UTF_8)));
  }
}
