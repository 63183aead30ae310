package dev.kubeheadroom.ops;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether a request to the metrics port may be served, as kubebuilder's metrics server decides it:
 * the bearer token is authenticated by a TokenReview, then the user must be allowed {@code get} on
 * the non-resource URL being asked for ({@code /metrics}, {@code /bookings}: distinct, so a
 * scraper cannot read bookings). No HTTP here; {@link OpsServer} maps a {@link Verdict} to a status.
 *
 * <p>Definite verdicts are cached per token and path for {@link #CACHE_TTL}, at most
 * {@link #CACHE_ENTRIES} of them, so a scrape every few seconds costs the API server two reviews
 * per {@code CACHE_TTL}; a revoked grant or token is honoured within that time. The cache keys on
 * a SHA-256 of the token, never the token. An API server that does not answer is a 503 for that
 * request (never an open door), logged once per outage.
 */
public final class TokenAuthorizer {
  private static final Logger LOG = LoggerFactory.getLogger(TokenAuthorizer.class);

  /** How long a verdict for one token and path is reused (docs/observability.md). */
  public static final Duration CACHE_TTL = Duration.ofSeconds(10);
  /** At most this many cached verdicts; the oldest goes first. */
  public static final int CACHE_ENTRIES = 1024;

  /** What to answer a request. */
  public sealed interface Verdict {
    int status();

    /** One line for the response body (empty when allowed). */
    String message();

    /** Serve it. */
    record Allowed(String user) implements Verdict {
      public int status() {
        return 200;
      }

      public String message() {
        return "";
      }
    }

    /** No bearer token, or one the TokenReview rejects: 401. */
    record Unauthenticated(String why) implements Verdict {
      public int status() {
        return 401;
      }

      public String message() {
        return "unauthorized: " + why;
      }
    }

    /** An authenticated user without {@code get} on the path: 403. */
    record Forbidden(String user, String path) implements Verdict {
      public int status() {
        return 403;
      }

      public String message() {
        return "forbidden: " + user + " may not get nonResourceURL " + path;
      }
    }

    /** The API server could not answer: 503, not cached. */
    record Unavailable(String why) implements Verdict {
      public int status() {
        return 503;
      }

      public String message() {
        return "cannot authorize now: " + why;
      }
    }
  }

  private final AccessReviews reviews;
  private final LongSupplier nanoTime;
  private final AtomicBoolean apiDown = new AtomicBoolean();
  private final Map<String, Cached> cache =
      new LinkedHashMap<>(64, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Cached> eldest) {
          return size() > CACHE_ENTRIES;
        }
      };

  private record Cached(Verdict verdict, long expiresAtNanos) {}

  public TokenAuthorizer(AccessReviews reviews) {
    this(reviews, System::nanoTime);
  }

  /** @param nanoTime a monotonic clock for the cache (tests step it) */
  public TokenAuthorizer(AccessReviews reviews, LongSupplier nanoTime) {
    this.reviews = reviews;
    this.nanoTime = nanoTime;
  }

  /**
   * The verdict for a request with this {@code Authorization} header (null when absent) to the
   * non-resource URL {@code path}.
   */
  public Verdict decide(String authorizationHeader, String path) {
    Optional<String> token = bearer(authorizationHeader);
    if (token.isEmpty()) {
      return new Verdict.Unauthenticated("no bearer token");
    }
    String key = digest(token.get()) + ' ' + path;
    long now = nanoTime.getAsLong();
    synchronized (cache) {
      Cached hit = cache.get(key);
      if (hit != null && now - hit.expiresAtNanos() < 0) {
        return hit.verdict();
      }
    }
    Verdict verdict = review(token.get(), path);
    if (!(verdict instanceof Verdict.Unavailable)) {
      synchronized (cache) {
        cache.put(key, new Cached(verdict, now + CACHE_TTL.toNanos()));
      }
    }
    return verdict;
  }

  private Verdict review(String token, String path) {
    try {
      Optional<AccessReviews.Subject> subject = reviews.authenticate(token);
      Verdict verdict;
      if (subject.isEmpty()) {
        verdict = new Verdict.Unauthenticated("the token is not valid");
      } else if (reviews.mayGet(subject.get(), path)) {
        verdict = new Verdict.Allowed(subject.get().user());
      } else {
        verdict = new Verdict.Forbidden(subject.get().user(), path);
      }
      if (apiDown.compareAndSet(true, false)) {
        LOG.info("metrics authorization: the API server answers reviews again");
      }
      return verdict;
    } catch (AccessReviews.Unavailable e) {
      if (apiDown.compareAndSet(false, true)) {
        LOG.warn("metrics authorization: {}; answering 503 until it does", e.getMessage());
      }
      return new Verdict.Unavailable(e.getMessage());
    }
  }

  /** The token of an {@code Authorization: Bearer <token>} header (scheme case-insensitive). */
  static Optional<String> bearer(String header) {
    if (header == null || header.length() < 7 || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
      return Optional.empty();
    }
    String token = header.substring(7).strip();
    return token.isEmpty() ? Optional.empty() : Optional.of(token);
  }

  private static String digest(String token) {
    try {
      return HexFormat.of().formatHex(
          MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every JDK", e);
    }
  }
}
