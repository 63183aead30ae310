package dev.kubeheadroom.installed;

import dev.kubeheadroom.kubedouble.RequestJournal;
import java.time.Instant;
import java.util.Set;

/**
 * One request the API server answered, as its authorizer saw it, whichever server recorded it:
 * the double's journal or a real kube-apiserver's audit log ({@link AuditLog}).
 *
 * @param at when the answer was recorded
 * @param user the authenticated user name ({@code system:serviceaccount:NS:SA}, ...)
 * @param verb the RBAC verb ({@code get}, {@code list}, {@code watch}, {@code patch}, ...)
 * @param resourceRequest false for {@code /version}, {@code /healthz}, discovery and the like
 */
record ApiCall(Instant at, String user, String verb, boolean resourceRequest, String group, String resource,
    String subresource, String namespace, String name, int code) {
  private static final Set<String> WRITES = Set.of("create", "update", "patch", "delete", "deletecollection");

  static ApiCall of(RequestJournal.Entry e) {
    var a = e.attributes();
    return new ApiCall(e.at(), e.caller().name(), a.verb(), a.resourceRequest(), a.apiGroup(), a.resource(),
        a.subresource(), a.namespace(), a.name(), e.code());
  }

  /** A request that changes stored state. */
  boolean isWrite() {
    return resourceRequest && WRITES.contains(verb);
  }

  /** A request on a {@code coordination.k8s.io} Lease (leader election). */
  boolean isLease() {
    return group.equals("coordination.k8s.io") && resource.equals("leases");
  }

  /** A PATCH on {@code pods/resize}. */
  boolean isResize() {
    return verb.equals("patch") && resource.equals("pods") && subresource.equals("resize");
  }

  boolean isResizeOf(String ns, String pod) {
    return isResize() && namespace.equals(ns) && name.equals(pod);
  }

  /** A PATCH on the pod object itself (Headroom's status annotation). */
  boolean isPodPatch() {
    return verb.equals("patch") && group.isEmpty() && resource.equals("pods") && subresource.isEmpty();
  }

  /** Whether ServiceAccount {@code ns/sa} made it. */
  boolean isBy(String ns, String sa) {
    return user.equals("system:serviceaccount:" + ns + ":" + sa);
  }

  /** {@code resource[/subresource]}, as RBAC rules name it. */
  String resourceWithSubresource() {
    return subresource.isEmpty() ? resource : resource + "/" + subresource;
  }

  /** One line for failure messages, e.g. {@code patch pods/resize team-a/web -> 200}. */
  String describe() {
    return verb + " " + resourceWithSubresource() + (group.isEmpty() ? "" : "." + group) + " "
        + (namespace.isEmpty() ? "" : namespace + "/") + name + " -> " + code + " by " + user;
  }
}
