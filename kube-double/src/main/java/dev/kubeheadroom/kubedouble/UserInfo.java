package dev.kubeheadroom.kubedouble;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Who made a request, as an authenticator reports it (k8s.io/apiserver {@code user.Info}): a user
 * name and its groups. A ServiceAccount token authenticates as
 * {@code system:serviceaccount:NS:SA} in {@code system:serviceaccounts},
 * {@code system:serviceaccounts:NS} and {@code system:authenticated}.
 */
public record UserInfo(String name, List<String> groups) {
  static final String SERVICE_ACCOUNT_PREFIX = "system:serviceaccount:";
  static final String AUTHENTICATED = "system:authenticated";
  static final String MASTERS = "system:masters";

  public UserInfo {
    Objects.requireNonNull(name, "name");
    groups = List.copyOf(groups);
  }

  /** The identity a ServiceAccount's token carries (serviceaccount.UserInfo in Kubernetes). */
  public static UserInfo serviceAccount(String namespace, String serviceAccount) {
    requireSegment(namespace, "namespace");
    requireSegment(serviceAccount, "serviceAccount");
    return new UserInfo(SERVICE_ACCOUNT_PREFIX + namespace + ":" + serviceAccount,
        List.of("system:serviceaccounts", "system:serviceaccounts:" + namespace, AUTHENTICATED));
  }

  /** The test-only administrator the double's own clients act as: in {@code system:masters}. */
  static UserInfo admin() {
    return new UserInfo("kube-double:admin", List.of(MASTERS, AUTHENTICATED));
  }

  /** {@code namespace/name} of the ServiceAccount this user is, if it is one. */
  public Optional<String> serviceAccountKey() {
    if (!name.startsWith(SERVICE_ACCOUNT_PREFIX)) {
      return Optional.empty();
    }
    String[] parts = name.substring(SERVICE_ACCOUNT_PREFIX.length()).split(":", -1);
    return parts.length == 2 ? Optional.of(parts[0] + "/" + parts[1]) : Optional.empty();
  }

  public boolean isServiceAccount(String namespace, String serviceAccount) {
    return name.equals(SERVICE_ACCOUNT_PREFIX + namespace + ":" + serviceAccount);
  }

  private static void requireSegment(String value, String what) {
    Objects.requireNonNull(value, what);
    if (value.isEmpty() || value.contains(":") || value.contains("/")) {
      throw new IllegalArgumentException(what + " must be a non-empty name without ':' or '/': " + value);
    }
  }
}
