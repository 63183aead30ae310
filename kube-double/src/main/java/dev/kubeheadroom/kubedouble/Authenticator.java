package dev.kubeheadroom.kubedouble;

import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Bearer-token authentication as kube-apiserver does it
 * ({@code staging/src/k8s.io/apiserver/pkg/authentication/request/bearertoken/bearertoken.go}):
 * {@code Authorization: Bearer <token>}, the scheme case-insensitive; a missing header, another
 * scheme, an empty or unknown token authenticates nobody (the server answers 401). Tokens are
 * opaque random strings the double issues: one for its admin, one per ServiceAccount.
 */
final class Authenticator {
  private static final SecureRandom RANDOM = new SecureRandom();

  private final Map<String, UserInfo> users = new ConcurrentHashMap<>();
  private final Map<String, String> serviceAccountTokens = new ConcurrentHashMap<>();
  private final String adminToken;

  Authenticator() {
    adminToken = issue(UserInfo.admin());
  }

  String adminToken() {
    return adminToken;
  }

  /** The token of this ServiceAccount; the same one on every call. */
  String serviceAccountToken(String namespace, String serviceAccount) {
    UserInfo user = UserInfo.serviceAccount(namespace, serviceAccount);
    return serviceAccountTokens.computeIfAbsent(user.name(), ignored -> issue(user));
  }

  /** Who the {@code Authorization} header value names, if anyone. */
  Optional<UserInfo> authenticate(String authorization) {
    if (authorization == null) {
      return Optional.empty();
    }
    String[] parts = authorization.trim().split(" ", 3);
    if (parts.length < 2 || !parts[0].equalsIgnoreCase("bearer") || parts[1].isEmpty()) {
      return Optional.empty();
    }
    return token(parts[1]);
  }

  /** Who this bearer token belongs to, if anyone (also a TokenReview's answer). */
  Optional<UserInfo> token(String token) {
    return Optional.ofNullable(users.get(token));
  }

  private String issue(UserInfo user) {
    byte[] bytes = new byte[24];
    RANDOM.nextBytes(bytes);
    String token = "kube-double." + HexFormat.of().formatHex(bytes);
    users.put(token, user);
    return token;
  }
}
