package dev.kubeheadroom.kubedouble;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedKeyManager;

/**
 * A mutating webhook for tests: JDK {@link HttpsServer} on 127.0.0.1, serving a certificate that
 * can be swapped while it runs (as a webhook reloading a renewed cert-manager Secret does),
 * answering each AdmissionReview with what the test programmed and keeping the reviews it got.
 */
final class TestWebhookServer implements AutoCloseable {
  static final String PATH = "/mutate";
  private static final ObjectMapper JSON = Serialization.jsonMapper();

  /** An HTTP answer: status, body, and how long to wait before sending it. */
  record Reply(int status, String body, Duration delay) {
    static Reply json(JsonNode body) {
      return new Reply(200, body.toString(), Duration.ZERO);
    }
  }

  private final HttpsServer server;
  private final ExecutorService threads = Executors.newCachedThreadPool();
  private final SwappableKeyManager keys;
  private final List<JsonNode> reviews = new CopyOnWriteArrayList<>();
  private final CountDownLatch closing = new CountDownLatch(1);
  private volatile Function<JsonNode, Reply> responder = r -> Reply.json(allow(r));

  private TestWebhookServer(TestCertificates.Serving serving) throws Exception {
    keys = new SwappableKeyManager(serving.keyManager());
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(new KeyManager[] {keys}, null, null);
    server = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setHttpsConfigurator(new HttpsConfigurator(context));
    server.createContext(PATH, this::handle);
    server.setExecutor(threads);
    server.start();
  }

  static TestWebhookServer start(TestCertificates.Serving serving) {
    try {
      return new TestWebhookServer(serving);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  InetSocketAddress address() {
    return server.getAddress();
  }

  /** Serves {@code serving} to connections made from now on. */
  void serve(TestCertificates.Serving serving) {
    keys.delegate = serving.keyManager();
  }

  void respond(Function<JsonNode, Reply> responder) {
    this.responder = responder;
  }

  /** Every AdmissionReview received so far. */
  List<JsonNode> reviews() {
    return List.copyOf(reviews);
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      JsonNode review = JSON.readTree(exchange.getRequestBody().readAllBytes());
      reviews.add(review);
      Reply reply = responder.apply(review);
      if (!reply.delay().isZero() && closing.await(reply.delay().toMillis(), TimeUnit.MILLISECONDS)) {
        return; // closing: drop the exchange
      }
      byte[] body = reply.body().getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().add("Content-Type", "application/json");
      exchange.sendResponseHeaders(reply.status(), body.length == 0 ? -1 : body.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  // ---- answers --------------------------------------------------------------------------------

  /** {@code allowed: true} for this review, without a patch. */
  static ObjectNode allow(JsonNode review) {
    ObjectNode answer = JSON.createObjectNode();
    answer.put("apiVersion", "admission.k8s.io/v1").put("kind", "AdmissionReview");
    answer.putObject("response").put("uid", review.at("/request/uid").asText()).put("allowed", true);
    return answer;
  }

  /** Allowed with this JSON patch ({@code patchType: JSONPatch}). */
  static ObjectNode patch(JsonNode review, ArrayNode operations) {
    ObjectNode answer = allow(review);
    ((ObjectNode) answer.get("response")).put("patchType", "JSONPatch")
        .put("patch", Base64.getEncoder().encodeToString(operations.toString().getBytes(StandardCharsets.UTF_8)));
    return answer;
  }

  /** The operation {@code add} of {@code value} at {@code path}. */
  static ArrayNode add(String path, String value) {
    ArrayNode ops = JSON.createArrayNode();
    ops.addObject().put("op", "add").put("path", path).put("value", value);
    return ops;
  }

  @Override
  public void close() {
    closing.countDown();
    server.stop(0);
    threads.shutdownNow();
  }

  /** Key manager whose certificate can change between handshakes. */
  private static final class SwappableKeyManager extends X509ExtendedKeyManager {
    private volatile X509ExtendedKeyManager delegate;

    SwappableKeyManager(X509ExtendedKeyManager delegate) {
      this.delegate = delegate;
    }

    @Override
    public String chooseEngineServerAlias(String keyType, Principal[] issuers, SSLEngine engine) {
      return delegate.chooseEngineServerAlias(keyType, issuers, engine);
    }

    @Override
    public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
      return delegate.chooseServerAlias(keyType, issuers, socket);
    }

    @Override
    public X509Certificate[] getCertificateChain(String alias) {
      return delegate.getCertificateChain(alias);
    }

    @Override
    public PrivateKey getPrivateKey(String alias) {
      return delegate.getPrivateKey(alias);
    }

    @Override
    public String[] getServerAliases(String keyType, Principal[] issuers) {
      return delegate.getServerAliases(keyType, issuers);
    }

    @Override
    public String[] getClientAliases(String keyType, Principal[] issuers) {
      return null;
    }

    @Override
    public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
      return null;
    }
  }
}
