package dev.kubeheadroom.installed;

import dev.kubeheadroom.kubedouble.ApiRequest;
import dev.kubeheadroom.kubedouble.ApiRequest.Verb;
import dev.kubeheadroom.kubedouble.RequestAttributes;
import dev.kubeheadroom.kubedouble.RequestJournal;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Classifications of the requests in the double's journal. */
final class Calls {
  private Calls() {}

  /** A request that changes stored state (create, update, patch, delete). */
  static boolean isWrite(ApiRequest r) {
    return r.verb() == Verb.CREATE || r.verb() == Verb.UPDATE || r.verb() == Verb.PATCH || r.verb() == Verb.DELETE;
  }

  /** A request on a {@code coordination.k8s.io} Lease (leader election). */
  static boolean isLease(ApiRequest r) {
    return r.group().equals("coordination.k8s.io") && r.resource().equals("leases");
  }

  /** The calls of the installation's ServiceAccounts, as the RBAC authorizer sees them. */
  static List<GrantsReport.Observed> observed(List<RequestJournal.Entry> entries, Installation installation) {
    List<GrantsReport.Observed> out = new ArrayList<>();
    for (RequestJournal.Entry e : entries) {
      if (e.attributes().resourceRequest()) {
        serviceAccount(e, installation).ifPresent(sa -> out.add(new GrantsReport.Observed(sa, call(e), e.code())));
      }
    }
    return out;
  }

  /** The installation's ServiceAccount that made the request, if one did. */
  static Optional<String> serviceAccount(RequestJournal.Entry e, Installation installation) {
    return installation.serviceAccountNames().stream().filter(sa -> e.isBy(installation.namespace, sa)).findFirst();
  }

  /** The request as the RBAC authorizer sees it (the double's {@code RequestAttributes}). */
  static Grants.Call call(RequestJournal.Entry e) {
    RequestAttributes a = e.attributes();
    String resource = a.subresource().isEmpty() ? a.resource() : a.resource() + "/" + a.subresource();
    return new Grants.Call(a.verb(), a.apiGroup(), resource, a.namespace(), a.name());
  }
}
