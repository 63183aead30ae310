package dev.kubeheadroom.installed;

import dev.kubeheadroom.kubedouble.ApiRequest;
import dev.kubeheadroom.kubedouble.ApiRequest.Verb;
import dev.kubeheadroom.kubedouble.RequestJournal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
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
      serviceAccount(e, installation).ifPresent(sa -> out.add(new GrantsReport.Observed(sa, call(e.request()), e.code())));
    }
    return out;
  }

  /** The installation's ServiceAccount that made the request, if one did. */
  static Optional<String> serviceAccount(RequestJournal.Entry e, Installation installation) {
    return Optional.empty(); // TODO(rbac): e.isBy(installation.namespace, sa)
  }

  static Grants.Call call(ApiRequest r) {
    String verb = r.verb().name().toLowerCase(Locale.ROOT);
    String resource = r.subresource().isEmpty() ? r.resource() : r.resource() + "/" + r.subresource();
    return new Grants.Call(verb, r.group(), resource, r.namespace(), r.name());
  }
}
