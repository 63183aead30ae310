package dev.kubeheadroom.kubedouble;

import dev.kubeheadroom.kubedouble.ApiRequest.Verb;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Predicate;

/**
 * Every HTTP request the API server answered, in arrival order, with the code it answered, who
 * made it and its authorization attributes. Requests from the seed client and the kubelet
 * double's own writes are not recorded.
 */
public final class RequestJournal {
  // Appended to on every request: a copy-on-write list copied the whole journal per request
  // (quadratic over a design-point run's hundreds of thousands of requests).
  private final Queue<Entry> entries = new ConcurrentLinkedQueue<>();
  private final Clock clock;

  /**
   * One answered request.
   *
   * @param caller who made it; name {@code ""} when it did not authenticate (answered 401)
   * @param attributes what it asked for, as the authorizer saw it (verb, group, resource,
   *     subresource, namespace, name)
   * @param authorized whether authentication and RBAC let it through (a 403 from a programmed
   *     fault or admission is still authorized)
   * @param body the body of a PATCH as sent ({@code ""} for other verbs): what a resize asked
   *     for, so that a test can tell a repeated patch from a new one
   */
  public record Entry(Instant at, ApiRequest request, int code, UserInfo caller,
      RequestAttributes attributes, boolean authorized, String body) {

    /** Whether ServiceAccount {@code namespace/serviceAccount} made this request. */
    public boolean isBy(String namespace, String serviceAccount) {
      return caller.isServiceAccount(namespace, serviceAccount);
    }

    /**
     * One line for listings and failure messages, e.g.
     * {@code patch pods/resize ns/web-1 -> 200} or {@code list nodes -> 403 (denied)}.
     */
    public String describe() {
      RequestAttributes a = attributes;
      String what = a.resourceRequest()
          ? a.verb() + " " + a.resourceWithSubresource() + (a.apiGroup().isEmpty() ? "" : "." + a.apiGroup())
              + (a.namespace().isEmpty() && a.name().isEmpty() ? ""
                  : " " + (a.namespace().isEmpty() ? "" : a.namespace() + "/") + a.name())
          : a.verb() + " " + a.path();
      return what.stripTrailing() + " -> " + code + (authorized ? "" : code == 401 ? " (unauthenticated)" : " (denied)");
    }
  }

  RequestJournal(Clock clock) {
    this.clock = clock;
  }

  void record(ApiRequest request, int code, UserInfo caller, RequestAttributes attributes, boolean authorized,
      String body) {
    entries.add(new Entry(clock.instant(), request, code, caller, attributes, authorized, body == null ? "" : body));
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

  /** The requests ServiceAccount {@code namespace/serviceAccount} made, in arrival order. */
  public List<Entry> by(String namespace, String serviceAccount) {
    return entries.stream().filter(e -> e.isBy(namespace, serviceAccount)).toList();
  }

  /** The requests per caller user name ({@code system:serviceaccount:NS:SA}, ...), in order of first call. */
  public Map<String, List<Entry>> byCaller() {
    Map<String, List<Entry>> out = new LinkedHashMap<>();
    entries.forEach(e -> out.computeIfAbsent(e.caller().name(), k -> new java.util.ArrayList<>()).add(e));
    out.replaceAll((k, v) -> List.copyOf(v));
    return out;
  }

  /** The requests authentication or RBAC refused (401 and 403 from the filters, not from faults). */
  public List<Entry> refused() {
    return entries.stream().filter(e -> !e.authorized()).toList();
  }

  public void clear() {
    entries.clear();
  }
}
