package dev.kubeheadroom.ops;

import com.sun.net.httpserver.Filter;
import com.sun.net.httpserver.HttpContext;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsParameters;
import com.sun.net.httpserver.HttpsServer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.zip.GZIPOutputStream;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.TrustManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The operational endpoints of one process, on two ports (deploy/README.md):
 *
 * <ul>
 *   <li>{@code --metrics-port}: {@code GET /metrics}, the Prometheus text format 0.0.4 or
 *       OpenMetrics by {@code Accept}, gzipped by {@code Accept-Encoding}, over HTTPS
 *       (certificate from {@code --metrics-cert-path}, reloaded when it rotates, or self-signed in
 *       memory) or plain HTTP with {@code --metrics-secure=false};
 *   <li>{@code --health-port}, plain HTTP: {@code GET /healthz} (200 while the process serves)
 *       and {@code GET /readyz} (200 when every {@link Readiness} check passes, else 503 with one
 *       line naming those that do not).
 * </ul>
 *
 * <p>Each server runs on two daemon threads of its own, so a slow scrape never delays a probe and
 * neither touches a stage's threads.
 */
public final class OpsServer implements AutoCloseable, OpsRoutes {
  private static final Logger LOG = LoggerFactory.getLogger(OpsServer.class);

  /** The Prometheus text exposition format a scraper gets unless it asks for OpenMetrics. */
  public static final String METRICS_CONTENT_TYPE = ScrapeFormat.TEXT_004.contentType();

  private final HttpServer health;
  private final HttpServer metrics;
  private final ExecutorService healthThreads;
  private final ExecutorService metricsThreads;
  private final Supplier<Optional<TlsMaterial>> servingMaterial;
  private final Optional<Filter> gate;

  private OpsServer(
      HttpServer health,
      HttpServer metrics,
      ExecutorService healthThreads,
      ExecutorService metricsThreads,
      Supplier<Optional<TlsMaterial>> servingMaterial,
      Optional<Filter> gate) {
    this.health = health;
    this.metrics = metrics;
    this.healthThreads = healthThreads;
    this.metricsThreads = metricsThreads;
    this.servingMaterial = servingMaterial;
    this.gate = gate;
  }

  /** Starts both servers with the system clock, the metrics port open to anyone. */
  public static OpsServer start(
      OpsConfig config, PrometheusMeterRegistry registry, Readiness readiness) throws IOException {
    return start(config, registry, readiness, Clock.systemUTC(), Optional.empty());
  }

  /** Starts both servers with the metrics port open to anyone. */
  public static OpsServer start(
      OpsConfig config, PrometheusMeterRegistry registry, Readiness readiness, Clock clock)
      throws IOException {
    return start(config, registry, readiness, clock, Optional.empty());
  }

  /**
   * Starts both servers.
   *
   * @param clock times certificate rotation checks and the self-signed validity
   * @param authorizer when present, every route of the metrics port ({@code /metrics}, a stage's
   *     {@code /bookings}) answers only a bearer token it allows, for that route's path; the
   *     health port stays open for the kubelet
   * @throws TlsMaterialException if {@code --metrics-cert-path} is unusable (one line, names the
   *     file)
   * @throws IOException if a port cannot be bound
   */
  public static OpsServer start(
      OpsConfig config, PrometheusMeterRegistry registry, Readiness readiness, Clock clock,
      Optional<TokenAuthorizer> authorizer)
      throws IOException {
    HttpServer metrics;
    Supplier<Optional<TlsMaterial>> material;
    if (config.metricsSecure()) {
      KeyManager keyManager;
      TrustManager[] clientTrust = null;
      if (config.metricsCertPath().isPresent()) {
        var dir = config.metricsCertPath().get();
        LOG.info("Initializing metrics certificate watcher using provided certificates in {}", dir);
        ReloadingKeyManager reloading =
            new ReloadingKeyManager("metrics", dir, config.certCheckInterval(), clock);
        keyManager = reloading;
        material = () -> Optional.of(reloading.current());
        clientTrust = reloading.current().clientTrustManager()
            .map(tm -> new TrustManager[] {tm}).orElse(null);
        LOG.info("metrics certificate: {}", reloading.current().describe());
      } else {
        TlsMaterial selfSigned = TlsMaterial.selfSigned(config.selfSignedNames(), clock);
        keyManager = selfSigned.keyManager();
        material = () -> Optional.of(selfSigned);
        LOG.info(
            "no --metrics-cert-path: serving /metrics with a self-signed certificate generated in"
                + " memory ({}); scrapers cannot verify it (runbook: Metrics TLS and scraper trust)",
            selfSigned.describe());
      }
      SSLContext context = sslContext(keyManager, clientTrust);
      boolean askClientCert = clientTrust != null;
      HttpsServer https = HttpsServer.create(new InetSocketAddress(config.metricsPort()), 0);
      https.setHttpsConfigurator(
          new HttpsConfigurator(context) {
            @Override
            public void configure(HttpsParameters params) {
              SSLParameters parameters = context.getDefaultSSLParameters();
              parameters.setWantClientAuth(askClientCert);
              params.setSSLParameters(parameters);
            }
          });
      metrics = https;
    } else {
      if (config.metricsCertPath().isPresent()) {
        LOG.warn("--metrics-secure=false: ignoring --metrics-cert-path, /metrics is plain HTTP");
      }
      metrics = HttpServer.create(new InetSocketAddress(config.metricsPort()), 0);
      material = Optional::empty;
    }
    HttpServer health;
    try {
      health = HttpServer.create(new InetSocketAddress(config.healthPort()), 0);
    } catch (IOException e) {
      metrics.stop(0);
      throw new IOException("cannot bind --health-port=" + config.healthPort(), e);
    }

    Optional<Filter> gate = authorizer.map(OpsServer::gate);
    HttpContext scrape =
        metrics.createContext("/metrics", exact("/metrics", exchange -> serveScrape(exchange, registry)));
    gate.ifPresent(scrape.getFilters()::add);
    health.createContext("/", exchange -> {
      String path = exchange.getRequestURI().getPath();
      if (path.equals("/healthz")) {
        respond(exchange, 200, "text/plain; charset=utf-8", "ok\n".getBytes(StandardCharsets.UTF_8));
      } else if (path.equals("/readyz")) {
        Readiness.Status status = readiness.check();
        respond(exchange, status.ready() ? 200 : 503, "text/plain; charset=utf-8",
            (status.message() + "\n").getBytes(StandardCharsets.UTF_8));
      } else {
        notFound(exchange);
      }
    });
    ExecutorService metricsThreads = Executors.newFixedThreadPool(2, daemon("headroom-metrics"));
    ExecutorService healthThreads = Executors.newFixedThreadPool(2, daemon("headroom-health"));
    metrics.setExecutor(metricsThreads);
    health.setExecutor(healthThreads);
    metrics.start();
    health.start();
    OpsServer server =
        new OpsServer(health, metrics, healthThreads, metricsThreads, material, gate);
    LOG.info(
        "serving /metrics over {} on :{} ({}), /healthz and /readyz over HTTP on :{}",
        config.metricsSecure() ? "HTTPS" : "HTTP", server.metricsPort(),
        gate.isPresent() ? "bearer token, TokenReview + SubjectAccessReview" : "no authentication",
        server.healthPort());
    return server;
  }

  /**
   * Serves {@code handler} under {@code path} on the metrics server (HTTPS unless
   * {@code --metrics-secure=false}), beside {@code /metrics}: how the topology serves its live
   * bookings to {@code explain --live}.
   */
  @Override
  public synchronized void route(String path, com.sun.net.httpserver.HttpHandler handler) {
    try {
      metrics.removeContext(path); // a restarted stage replaces its route
    } catch (IllegalArgumentException none) {
      // first time
    }
    HttpContext context = metrics.createContext(path, handler);
    gate.ifPresent(context.getFilters()::add);
  }

  /**
   * Serves a request only when {@code authorizer} allows its bearer token {@code get} on the
   * route's path (the context's, so {@code /bookings/ns/pod} is authorized as {@code /bookings}).
   */
  private static Filter gate(TokenAuthorizer authorizer) {
    return new Filter() {
      @Override
      public void doFilter(HttpExchange exchange, Chain chain) throws IOException {
        String path = exchange.getHttpContext().getPath();
        TokenAuthorizer.Verdict verdict = authorizer.decide(
            exchange.getRequestHeaders().getFirst("Authorization"), path);
        if (verdict instanceof TokenAuthorizer.Verdict.Allowed) {
          chain.doFilter(exchange);
          return;
        }
        if (verdict.status() == 401) {
          exchange.getResponseHeaders().set("WWW-Authenticate", "Bearer");
        }
        respond(exchange, verdict.status(), "text/plain; charset=utf-8",
            (verdict.message() + "\n").getBytes(StandardCharsets.UTF_8));
      }

      @Override
      public String description() {
        return "bearer token: TokenReview + SubjectAccessReview";
      }
    };
  }

  /**
   * One scrape, in the format the {@code Accept} header prefers ({@link ScrapeFormat}), gzipped
   * when {@code Accept-Encoding} allows: a scrape of a large topology instance is mostly repeated
   * metric names and compresses about tenfold.
   */
  private static void serveScrape(HttpExchange exchange, PrometheusMeterRegistry registry)
      throws IOException {
    ScrapeFormat format = ScrapeFormat.negotiate(exchange.getRequestHeaders().getFirst("Accept"));
    byte[] body;
    try {
      body = registry.scrape(format.contentType()).getBytes(StandardCharsets.UTF_8);
    } catch (RuntimeException e) {
      LOG.warn("scrape failed: {}", e.toString());
      respond(exchange, 500, "text/plain; charset=utf-8",
          ("scrape failed: " + e.getMessage() + "\n").getBytes(StandardCharsets.UTF_8));
      return;
    }
    exchange.getResponseHeaders().set("Vary", "Accept, Accept-Encoding");
    if (ScrapeFormat.acceptsGzip(exchange.getRequestHeaders().getFirst("Accept-Encoding"))) {
      ByteArrayOutputStream zipped = new ByteArrayOutputStream(body.length / 4 + 64);
      try (GZIPOutputStream gzip = new GZIPOutputStream(zipped)) {
        gzip.write(body);
      }
      body = zipped.toByteArray();
      exchange.getResponseHeaders().set("Content-Encoding", "gzip");
    }
    respond(exchange, 200, format.contentType(), body);
  }

  /** The bound health port (the ephemeral one when configured as 0). */
  public int healthPort() {
    return health.getAddress().getPort();
  }

  /** The bound metrics port (the ephemeral one when configured as 0). */
  public int metricsPort() {
    return metrics.getAddress().getPort();
  }

  /** The certificate {@code /metrics} is served with now; empty over plain HTTP. */
  public Optional<X509Certificate> metricsCertificate() {
    return servingMaterial.get().map(TlsMaterial::certificate);
  }

  @Override
  public void close() {
    metrics.stop(0);
    health.stop(0);
    metricsThreads.shutdownNow();
    healthThreads.shutdownNow();
  }

  private static SSLContext sslContext(KeyManager keyManager, TrustManager[] trust) {
    try {
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(new KeyManager[] {keyManager}, trust, null);
      return context;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot build the metrics TLS context", e);
    }
  }

  /** Serves {@code path} exactly (GET and HEAD), 404 for anything under it. */
  private static HttpHandler exact(String path, HttpHandler handler) {
    return exchange -> {
      if (!exchange.getRequestURI().getPath().equals(path)) {
        notFound(exchange);
      } else {
        handler.handle(exchange);
      }
    };
  }

  private static void notFound(HttpExchange exchange) throws IOException {
    respond(exchange, 404, "text/plain; charset=utf-8",
        "not found\n".getBytes(StandardCharsets.UTF_8));
  }

  private static void respond(HttpExchange exchange, int status, String contentType, byte[] body)
      throws IOException {
    try (exchange) {
      String method = exchange.getRequestMethod();
      if (!method.equals("GET") && !method.equals("HEAD")) {
        exchange.getResponseHeaders().set("Allow", "GET, HEAD");
        exchange.sendResponseHeaders(405, -1);
        return;
      }
      exchange.getResponseHeaders().set("Content-Type", contentType);
      if (method.equals("HEAD")) {
        exchange.sendResponseHeaders(status, -1);
        return;
      }
      exchange.sendResponseHeaders(status, body.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    }
  }

  private static java.util.concurrent.ThreadFactory daemon(String name) {
    AtomicInteger n = new AtomicInteger();
    return runnable -> {
      Thread thread = new Thread(runnable, name + "-" + n.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    };
  }
}
