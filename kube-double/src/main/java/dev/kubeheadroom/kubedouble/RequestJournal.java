package dev.kubeheadroom.kubedouble;

import dev.kubeheadroom.kubedouble.ApiRequest.Verb;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;

/**
 * Every HTTP request the API server answered, in arrival order, with the code it answered.
 * Requests from the seed client and the kubelet double's own writes are not recorded.
 */
public final class RequestJournal {
  private final List<Entry> entries = new CopyOnWriteArrayList<>();
  private final Clock clock;

  /** One answered request. */
  public record Entry(Instant at, ApiRequest request, int code) {}

  RequestJournal(Clock clock) {
    this.clock = clock;
  }

  void record(ApiRequest request, int code) {
    entries.add(new Entry(clock.instant(), request, code));
  }

  /** How many requests matched, e.g. {@code count(RequestMatcher.resize())}. */
  public long count(Predicate<ApiRequest> matcher) {
    return entries.stream().filter(e -> matcher.test(e.request())).count();
  }

  /** How many requests had this verb on this resource's subresource ({@code ""}: the object). */
  public long count(Verb verb, String resource, String subresource) {
    return count(RequestMatcher.of(verb, resource, subresource));
  }

  /** How many matching requests were answered with this HTTP code. */
  public long count(Predicate<ApiRequest> matcher, int code) {
    return entries.stream().filter(e -> e.code() == code && matcher.test(e.request())).count();
  }

  /** How many matching requests arrived at or after {@code since}. */
  public long countSince(Instant since, Predicate<ApiRequest> matcher) {
    return entries.stream()
        .filter(e -> !e.at().isBefore(since) && matcher.test(e.request())).count();
  }

  public List<Entry> entries() {
    return List.copyOf(entries);
  }

  public void clear() {
    entries.clear();
  }
}
