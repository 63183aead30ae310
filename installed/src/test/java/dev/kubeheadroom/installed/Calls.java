package dev.kubeheadroom.installed;

import dev.kubeheadroom.kubedouble.ApiRequest;
import dev.kubeheadroom.kubedouble.ApiRequest.Verb;

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
}
