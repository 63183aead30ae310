package dev.kubeheadroom.kubedouble;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * Authorization as kube-apiserver's RBAC authorizer decides it
 * ({@code plugin/pkg/auth/authorizer/rbac/rbac.go}, {@code pkg/registry/rbac/validation/rule.go},
 * {@code pkg/apis/rbac/v1/evaluation_helpers.go}), over the {@code rbac.authorization.k8s.io/v1}
 * objects stored in the double:
 * <ul>
 *   <li>{@code system:masters} is allowed everything (the privileged-group authorizer that runs
 *       before RBAC);</li>
 *   <li>ClusterRoleBindings, then the RoleBindings of the request's namespace, whose subjects name
 *       the user (User), one of its groups (Group) or it as a ServiceAccount (a subject without
 *       namespace means the binding's); a RoleBinding to a ClusterRole grants its rules in the
 *       binding's namespace only;</li>
 *   <li>a rule allows when verb, API group, resource ({@code pods/resize} for a subresource,
 *       {@code *} and {@code *}{@code /resize} wildcards) and resourceNames (empty: any) match; a
 *       request without a name (create, list, watch) never matches a rule with resourceNames;
 *       non-resource requests match {@code nonResourceURLs} ({@code /apis/*} prefixes);</li>
 *   <li>a binding whose role is missing grants nothing and is named in the denial's reason
 *       ({@code RBAC: role.rbac.authorization.k8s.io "x" not found}).</li>
 * </ul>
 * The default bootstrap policy's grants to {@code system:authenticated} are built in rather than
 * stored: {@code system:discovery} / {@code system:public-info-viewer} (GET on {@code /api},
 * {@code /apis}, {@code /version}, {@code /healthz}, {@code /openapi} ...) and
 * {@code system:basic-user} (create self subject access/rules reviews).
 */
final class RbacAuthorizer {
  static final String GROUP = "rbac.authorization.k8s.io";
  private static final String API = "/apis/" + GROUP + "/v1/";

  /** The bootstrap ClusterRoles bound to {@code system:authenticated} (plugin/pkg/auth/authorizer/rbac/bootstrappolicy/policy.go). */
  private static final List<RbacRule> AUTHENTICATED_DEFAULTS = List.of(
      RbacRule.nonResource(List.of("get"), List.of("/api", "/api/*", "/apis", "/apis/*", "/healthz",
          "/livez", "/openapi", "/openapi/*", "/readyz", "/version", "/version/")),
      new RbacRule(List.of("create"), List.of("authorization.k8s.io"),
          List.of("selfsubjectaccessreviews", "selfsubjectrulesreviews"), List.of(), List.of()),
      new RbacRule(List.of("create"), List.of("authentication.k8s.io"),
          List.of("selfsubjectreviews"), List.of(), List.of()));

  /** Allowed or not, and why not when a binding could not be followed. */
  record Decision(boolean allowed, String reason) {}

  private final Function<String, List<ObjectNode>> store;

  /** {@code store} lists the stored objects of a collection path, e.g. {@code /apis/.../clusterroles}. */
  RbacAuthorizer(Function<String, List<ObjectNode>> store) {
    this.store = store;
  }

  Decision authorize(UserInfo user, RequestAttributes request) {
    if (user.groups().contains(UserInfo.MASTERS)) {
      return new Decision(true, "");
    }
    if (user.groups().contains(UserInfo.AUTHENTICATED)
        && AUTHENTICATED_DEFAULTS.stream().anyMatch(rule -> rule.allows(request))) {
      return new Decision(true, "");
    }
    List<String> errors = new ArrayList<>();
    for (ObjectNode binding : store.apply(API + "clusterrolebindings")) {
      if (appliesTo(user, binding, "") && rules(binding, "", errors).stream().anyMatch(r -> r.allows(request))) {
        return new Decision(true, "");
      }
    }
    if (!request.namespace().isEmpty()) {
      for (ObjectNode binding : store.apply(API + "namespaces/" + request.namespace() + "/rolebindings")) {
        if (appliesTo(user, binding, request.namespace())
            && rules(binding, request.namespace(), errors).stream().anyMatch(r -> r.allows(request))) {
          return new Decision(true, "");
        }
      }
    }
    // utilerrors.NewAggregate: one error prints as itself, several as [a, b]
    String reason = errors.isEmpty() ? ""
        : "RBAC: " + (errors.size() == 1 ? errors.get(0) : "[" + String.join(", ", errors) + "]");
    return new Decision(false, reason);
  }

  /** rule.go appliesToUser, over every subject of the binding. */
  private static boolean appliesTo(UserInfo user, JsonNode binding, String bindingNamespace) {
    for (JsonNode subject : binding.path("subjects")) {
      String name = subject.path("name").asText();
      boolean applies = switch (subject.path("kind").asText()) {
        case "User" -> user.name().equals(name);
        case "Group" -> user.groups().contains(name);
        case "ServiceAccount" -> {
          String namespace = subject.path("namespace").asText("");
          namespace = namespace.isEmpty() ? bindingNamespace : namespace;
          yield !namespace.isEmpty() && user.name().equals(UserInfo.SERVICE_ACCOUNT_PREFIX + namespace + ":" + name);
        }
        default -> false;
      };
      if (applies) {
        return true;
      }
    }
    return false;
  }

  /** rule.go GetRoleReferenceRules: the rules of the binding's Role (in its namespace) or ClusterRole. */
  private List<RbacRule> rules(JsonNode binding, String bindingNamespace, List<String> errors) {
    JsonNode roleRef = binding.path("roleRef");
    String name = roleRef.path("name").asText();
    String kind = roleRef.path("kind").asText();
    Optional<ObjectNode> role = switch (kind) {
      case "Role" -> find(API + "namespaces/" + bindingNamespace + "/roles", name);
      case "ClusterRole" -> find(API + "clusterroles", name);
      default -> Optional.empty();
    };
    if (role.isEmpty()) {
      errors.add(kind.toLowerCase() + "." + GROUP + " \"" + name + "\" not found");
      return List.of();
    }
    List<RbacRule> rules = new ArrayList<>();
    role.get().path("rules").forEach(rule -> rules.add(RbacRule.of(rule)));
    return rules;
  }

  private Optional<ObjectNode> find(String collection, String name) {
    if (collection.contains("/namespaces//")) {
      return Optional.empty(); // a Role referenced from a ClusterRoleBinding: no namespace to look in
    }
    return store.apply(collection).stream()
        .filter(object -> object.path("metadata").path("name").asText().equals(name)).findFirst();
  }
}
