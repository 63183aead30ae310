package dev.kubeheadroom.webhook;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTPS endpoint (JDK {@link HttpsServer}, no framework): {@code POST /mutate-v1-pod} answers
 * AdmissionReviews through {@link AdmissionHandler}; {@code GET /healthz} answers {@code ok}.
 *
 * <p>Bounded on every side: a body larger than {@code maxBodyBytes} gets 413 without being read;
 * a request not answered within {@code requestTimeout} (a client that trickles its body) has its
 * exchange closed; a small fixed pool serves requests (when its queue is full the accepting thread
 * serves the request itself, which slows accepting rather than dropping). Every non-200 answer
 * makes the API server apply {@code failurePolicy: Ignore}: the pod is admitted unchanged.
 */
public final class WebhookServer implements AutoCloseable {
  public static final String MUTATE_PATH = "/mutate-v1-pod";
  public static final String HEALTH_PATH = "/healthz";
  private static final Logger LOG = LoggerFactory.getLogger(WebhookServer.class);
  private static final int QUEUE = 256;

  private final HttpsServer server;
  private final ThreadPoolExecutor pool;
  private final ScheduledExecutorService watchdog;
  private final AdmissionHandler handler;
  private final WebhookMetrics metrics;
  private final int maxBodyBytes;
  private final Duration requestTimeout;

  private WebhookServer(HttpsServer server, ThreadPoolExecutor pool, ScheduledExecutorService watchdog,
      AdmissionHandler handler, WebhookMetrics metrics, int maxBodyBytes, Duration requestTimeout) {
    this.server = server;
    this.pool = pool;
    this.watchdog = watchdog;
    this.handler = handler;
    this.metrics = metrics;
    this.maxBodyBytes = maxBodyBytes;
    this.requestTimeout = requestTimeout;
  }

  /**
   * Binds {@code port} (0 = any free port) on every interface and starts serving.
   *
   * @throws UncheckedIOException when the port cannot be bound
   */
  public static WebhookServer start(int port, SSLContext sslContext, AdmissionHandler handler,
      WebhookMetrics metrics, int threads, int maxBodyBytes, Duration requestTimeout) {
    handler.prime();
    HttpsServer server;
    try {
      server = HttpsServer.create(new InetSocketAddress(port), 0);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot bind the webhook port " + port + ": " + e.getMessage(), e);
    }
    server.setHttpsConfigurator(new HttpsConfigurator(sslContext));
    ThreadPoolExecutor pool = new ThreadPoolExecutor(threads, threads, 60, TimeUnit.SECONDS,
        new ArrayBlockingQueue<>(QUEUE), daemonThreads("headroom-webhook-http"),
        new ThreadPoolExecutor.CallerRunsPolicy());
    ScheduledExecutorService watchdog =
        Executors.newSingleThreadScheduledExecutor(daemonThreads("headroom-webhook-timeout"));
    WebhookServer ws = new WebhookServer(server, pool, watchdog, handler, metrics, maxBodyBytes, requestTimeout);
    server.createContext(MUTATE_PATH, ws::mutate);
    server.createContext(HEALTH_PATH, ws::health);
    server.createContext("/", ex -> ws.plain(ex, 404, "not found"));
    server.setExecutor(pool);
    server.start();
    LOG.info("Webhook serving HTTPS on port {}", ws.port());
    return ws;
  }

  /** The bound port (the real one when started with 0). */
  public int port() {
    return server.getAddress().getPort();
  }

  private void mutate(HttpExchange ex) throws IOException {
    long started = System.nanoTime();
    ScheduledFuture<?> timeout = watchdog.schedule(ex::close, requestTimeout.toMillis(), TimeUnit.MILLISECONDS);
    try {
      if (!MUTATE_PATH.equals(ex.getRequestURI().getPath())) {
        plain(ex, 404, "not found");
        return;
      }
      if (!"POST".equals(ex.getRequestMethod())) {
        ex.getResponseHeaders().add("Allow", "POST");
        plain(ex, 405, "POST only");
        return;
      }
      byte[] body = readBody(ex);
      if (body == null) {
        plain(ex, 413, "body larger than " + maxBodyBytes + " bytes");
        return;
      }
      byte[] answer = handler.handle(body);
      ex.getResponseHeaders().add("Content-Type", "application/json");
      ex.sendResponseHeaders(200, answer.length);
      try (OutputStream out = ex.getResponseBody()) {
        out.write(answer);
      }
      metrics.latency().record(System.nanoTime() - started, TimeUnit.NANOSECONDS);
    } finally {
      timeout.cancel(false);
      ex.close();
    }
  }

  /** The body, or null when it is larger than the limit (declared or actual). */
  private byte[] readBody(HttpExchange ex) throws IOException {
    String declared = ex.getRequestHeaders().getFirst("Content-Length");
    if (declared != null) {
      try {
        if (Long.parseLong(declared.trim()) > maxBodyBytes) {
          return null;
        }
      } catch (NumberFormatException e) {
        // chunked or odd: the read below still enforces the limit
      }
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream(8192);
    byte[] buf = new byte[8192];
    try (InputStream in = ex.getRequestBody()) {
      int n;
      while ((n = in.read(buf)) >= 0) {
        if (out.size() + n > maxBodyBytes) {
          return null;
        }
        out.write(buf, 0, n);
      }
    }
    return out.toByteArray();
  }

  private void health(HttpExchange ex) throws IOException {
    try {
      if (!HEALTH_PATH.equals(ex.getRequestURI().getPath())) {
        plain(ex, 404, "not found");
        return;
      }
      byte[] ok = "ok".getBytes(StandardCharsets.UTF_8);
      ex.getResponseHeaders().add("Content-Type", "text/plain; charset=utf-8");
      ex.sendResponseHeaders(200, ok.length);
      try (OutputStream out = ex.getResponseBody()) {
        out.write(ok);
      }
    } finally {
      ex.close();
    }
  }

  private void plain(HttpExchange ex, int status, String message) throws IOException {
    try {
      if (status != 200) {
        metrics.rejected(status);
      }
      byte[] bytes = message.getBytes(StandardCharsets.UTF_8);
      ex.getResponseHeaders().add("Content-Type", "text/plain; charset=utf-8");
      // Connection: close, so an unread request body is never taken for the next request.
      ex.getResponseHeaders().add("Connection", "close");
      ex.sendResponseHeaders(status, bytes.length);
      try (OutputStream out = ex.getResponseBody()) {
        out.write(bytes);
      }
    } finally {
      ex.close();
    }
  }

  /** Stops accepting, gives in-flight requests up to a second, then stops the threads. */
  @Override
  public void close() {
    server.stop(1);
    pool.shutdownNow();
    watchdog.shutdownNow();
  }

  private static ThreadFactory daemonThreads(String prefix) {
    AtomicInteger n = new AtomicInteger();
    return r -> {
      Thread t = new Thread(r, prefix + "-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
  }
}
