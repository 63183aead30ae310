package dev.kubeheadroom.installed;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The calls of one installation's ServiceAccounts among those an API server answered. */
final class Calls {
  private Calls() {}

  /** The calls of the installation's ServiceAccounts, as the RBAC authorizer sees them. */
  static List<GrantsReport.Observed> observed(List<ApiCall> calls, Installation installation) {
    List<GrantsReport.Observed> out = new ArrayList<>();
    for (ApiCall c : calls) {
      if (c.resourceRequest()) {
        serviceAccount(c, installation).ifPresent(sa -> out.add(new GrantsReport.Observed(sa, call(c), c.code())));
      }
    }
    return out;
  }

  /**
   * The writes the installation's stages made at or after {@code since}, but their Leases'
   * (a real server's own components and the node agent write too: not Headroom's).
   */
  static List<ApiCall> writesBesidesLeases(List<ApiCall> calls, Installation installation, Instant since) {
    return calls.stream().filter(c -> !c.at().isBefore(since) && c.isWrite() && !c.isLease()
        && serviceAccount(c, installation).isPresent()).toList();
  }

  /** The installation's Lease writes at or after {@code since}. */
  static long leaseWrites(List<ApiCall> calls, Installation installation, Instant since) {
    return calls.stream().filter(c -> !c.at().isBefore(since) && c.isWrite() && c.isLease()
        && serviceAccount(c, installation).isPresent()).count();
  }

  /** The installation's ServiceAccount that made the call, if one did. */
  static Optional<String> serviceAccount(ApiCall c, Installation installation) {
    return installation.serviceAccountNames().stream().filter(sa -> c.isBy(installation.namespace, sa)).findFirst();
  }

  /** The call as the RBAC authorizer sees it. */
  static Grants.Call call(ApiCall c) {
    return new Grants.Call(c.verb(), c.group(), c.resourceWithSubresource(), c.namespace(), c.name());
  }
}
