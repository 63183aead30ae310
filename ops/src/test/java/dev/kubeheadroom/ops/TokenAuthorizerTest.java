package dev.kubeheadroom.ops;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.ops.AccessReviews.Subject;
import dev.kubeheadroom.ops.TokenAuthorizer.Verdict;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class TokenAuthorizerTest {
  /** Tokens "scraper" (get /metrics) and "explainer" (get /bookings); others are invalid. */
  private final class Reviews implements AccessReviews {
    final List<String> asked = new ArrayList<>();
    boolean down;

    @Override
    public Optional<Subject> authenticate(String token) throws Unavailable {
      asked.add("token " + token);
      if (down) {
        throw new Unavailable("API server unreachable");
      }
      return Set.of("scraper", "explainer").contains(token)
          ? Optional.of(new Subject("system:serviceaccount:ns:" + token, "uid", List.of(), Map.of()))
          : Optional.empty();
    }

    @Override
    public boolean mayGet(Subject subject, String path) throws Unavailable {
      asked.add("sar " + subject.user() + " " + path);
      return subject.user().endsWith(":scraper") ? path.equals("/metrics") : path.equals("/bookings");
    }
  }

  private final Reviews reviews = new Reviews();
  private final AtomicLong nanos = new AtomicLong();
  private final TokenAuthorizer authorizer = new TokenAuthorizer(reviews, nanos::get);

  @Test
  void noTokenOrAnInvalidOneIs401AndAGrantPerPathDecides200Or403() {
    assertThat(authorizer.decide(null, "/metrics").status()).isEqualTo(401);
    assertThat(authorizer.decide("Basic dXNlcjpwYXNz", "/metrics").status()).isEqualTo(401);
    assertThat(authorizer.decide("Bearer ", "/metrics").status()).isEqualTo(401);
    assertThat(authorizer.decide("Bearer forged", "/metrics").status()).isEqualTo(401);

    assertThat(authorizer.decide("Bearer scraper", "/metrics"))
        .isEqualTo(new Verdict.Allowed("system:serviceaccount:ns:scraper"));
    assertThat(authorizer.decide("bearer scraper", "/bookings"))
        .isEqualTo(new Verdict.Forbidden("system:serviceaccount:ns:scraper", "/bookings"));
    assertThat(authorizer.decide("Bearer explainer", "/bookings").status()).isEqualTo(200);
    assertThat(authorizer.decide("Bearer explainer", "/metrics").message())
        .isEqualTo("forbidden: system:serviceaccount:ns:explainer may not get nonResourceURL /metrics");
  }

  @Test
  void aVerdictIsReusedPerTokenAndPathForTheTtlThenAskedAgain() {
    authorizer.decide("Bearer scraper", "/metrics");
    authorizer.decide("Bearer scraper", "/metrics");
    authorizer.decide("Bearer scraper", "/bookings");
    assertThat(reviews.asked).hasSize(4); // one TokenReview + one SAR per path

    nanos.addAndGet(TokenAuthorizer.CACHE_TTL.toNanos() - 1);
    authorizer.decide("Bearer scraper", "/metrics");
    assertThat(reviews.asked).hasSize(4);

    nanos.addAndGet(1);
    authorizer.decide("Bearer scraper", "/metrics");
    assertThat(reviews.asked).hasSize(6);
  }

  @Test
  void anUnreachableApiServerIs503AndNotCached() {
    reviews.down = true;
    assertThat(authorizer.decide("Bearer scraper", "/metrics").status()).isEqualTo(503);
    assertThat(authorizer.decide("Bearer scraper", "/metrics").status()).isEqualTo(503);
    assertThat(reviews.asked).hasSize(2);

    reviews.down = false;
    assertThat(authorizer.decide("Bearer scraper", "/metrics").status()).isEqualTo(200);
  }

  @Test
  void theCacheHoldsAtMostItsBoundAndForgetsTheOldestFirst() {
    for (int i = 0; i <= TokenAuthorizer.CACHE_ENTRIES; i++) {
      authorizer.decide("Bearer forged-" + i, "/metrics");
    }
    int asked = reviews.asked.size();
    authorizer.decide("Bearer forged-" + TokenAuthorizer.CACHE_ENTRIES, "/metrics");
    assertThat(reviews.asked).hasSize(asked);
    authorizer.decide("Bearer forged-0", "/metrics");
    assertThat(reviews.asked).hasSize(asked + 1);
  }
}
