package dev.kubeheadroom.actuator;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.http.AsyncBody;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.http.Interceptor;
import java.nio.ByteBuffer;
import java.time.Clock;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.List;

/**
 * The actuator's Kubernetes client, built here for production and tests alike (the actuator
 * builds it from the {@link Config} it is started with).
 *
 * <p>One retry layer: fabric8's HTTP client would retry 429, 5xx and I/O errors itself (10 tries
 * by default, exponential from 100 ms, sleeping as long as any {@code Retry-After} asks) while the
 * actuator's single loop thread waits, and {@link RetryPolicy} would then retry the whole try on
 * top. Here fabric8's retries are off ({@code requestRetryBackoffLimit = 0}): a call is one
 * request, a transient failure returns at once, and the change waits for its retry in the
 * {@link Coalescer} while the loop goes on. The {@code Retry-After} of the last answer is kept
 * ({@link #lastRetryAfter()}), since fabric8's exception for a plain-text 429 does not carry it.
 */
public final class ActuatorClient implements AutoCloseable {
  static final String RETRY_AFTER = "Retry-After";

  private final KubernetesClient client;
  private final RetryAfterRecorder recorder;

  private ActuatorClient(KubernetesClient client, RetryAfterRecorder recorder) {
    this.client = client;
    this.recorder = recorder;
  }

  /** Builds the client from {@code config}, which it adjusts (retries off) and keeps. */
  public static ActuatorClient connect(Config config) {
    config.setRequestRetryBackoffLimit(0);
    RetryAfterRecorder recorder = new RetryAfterRecorder(Clock.systemUTC());
    KubernetesClient client = new KubernetesClientBuilder().withConfig(config)
        .withHttpClientBuilderConsumer(b -> b.addOrReplaceInterceptor("headroom-retry-after", recorder))
        .build();
    return new ActuatorClient(client, recorder);
  }

  public KubernetesClient kubernetes() {
    return client;
  }

  /**
   * How long the last answer (429 or 5xx) asked to wait, {@link Duration#ZERO} if it did not ask.
   * Read right after a failed call: only the actuator's loop thread uses this client, one call at
   * a time, so the last answer is that call's.
   */
  public Duration lastRetryAfter() {
    return recorder.last;
  }

  @Override
  public void close() {
    client.close();
  }

  /** {@code Retry-After} in seconds or as an HTTP date (RFC 9110 10.2.3); ZERO when absent or unreadable. */
  static Duration parseRetryAfter(String value, Clock clock) {
    if (value == null || value.isBlank()) {
      return Duration.ZERO;
    }
    String v = value.trim();
    try {
      long seconds = Long.parseLong(v);
      return seconds > 0 ? Duration.ofSeconds(seconds) : Duration.ZERO;
    } catch (NumberFormatException notSeconds) {
      try {
        Duration until = Duration.between(clock.instant(),
            ZonedDateTime.parse(v, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant());
        return until.isNegative() ? Duration.ZERO : until;
      } catch (DateTimeParseException notADate) {
        return Duration.ZERO;
      }
    }
  }

  /** Sees every answer of the client before the caller does. */
  private static final class RetryAfterRecorder implements Interceptor {
    private final Clock clock;
    private volatile Duration last = Duration.ZERO;

    RetryAfterRecorder(Clock clock) {
      this.clock = clock;
    }

    @Override
    public void after(HttpRequest request, HttpResponse<?> response,
        AsyncBody.Consumer<List<ByteBuffer>> consumer) {
      int code = response.code();
      last = code == 429 || code >= 500 ? parseRetryAfter(response.header(RETRY_AFTER), clock) : Duration.ZERO;
    }
  }
}
