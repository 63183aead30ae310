package dev.kubeheadroom.kubedouble;

import dev.kubeheadroom.kubedouble.ApiRequest.Verb;
import java.util.function.Predicate;

/**
 * Which requests a fault or a count applies to. A null component matches anything; the
 * subresource matches exactly ({@code ""} is the object itself).
 */
public record RequestMatcher(Verb verb, String resource, String subresource, String namespace, String name)
    implements Predicate<ApiRequest> {

  public static RequestMatcher any() {
    return new RequestMatcher(null, null, null, null, null);
  }

  /** Every request with this verb on this resource (any subresource). */
  public static RequestMatcher of(Verb verb, String resource) {
    return new RequestMatcher(verb, resource, null, null, null);
  }

  /** Every request with this verb on this resource's subresource ({@code ""}: the object). */
  public static RequestMatcher of(Verb verb, String resource, String subresource) {
    return new RequestMatcher(verb, resource, subresource, null, null);
  }

  /** PATCH on {@code pods/resize}, any pod. */
  public static RequestMatcher resize() {
    return of(Verb.PATCH, "pods", "resize");
  }

  /** PATCH on {@code pods/resize} of one pod. */
  public static RequestMatcher resizeOf(String namespace, String name) {
    return new RequestMatcher(Verb.PATCH, "pods", "resize", namespace, name);
  }

  /** PATCH on the pod object itself (Headroom's status annotation), any pod. */
  public static RequestMatcher podPatch() {
    return of(Verb.PATCH, "pods", "");
  }

  public RequestMatcher forPod(String namespace, String name) {
    return new RequestMatcher(verb, resource, subresource, namespace, name);
  }

  @Override
  public boolean test(ApiRequest request) {
    return (verb == null || verb == request.verb())
        && (resource == null || resource.equals(request.resource()))
        && (subresource == null || subresource.equals(request.subresource()))
        && (namespace == null || namespace.equals(request.namespace()))
        && (name == null || name.equals(request.name()));
  }
}
