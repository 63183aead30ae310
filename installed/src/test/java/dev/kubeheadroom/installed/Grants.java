package dev.kubeheadroom.installed;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.api.model.rbac.Subject;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The RBAC rules a rendered chart grants one ServiceAccount, matched as the API server's RBAC
 * authorizer matches them (plugin/pkg/auth/authorizer/rbac/rbac.go, {@code RuleAllows}): verb,
 * API group, resource or {@code resource/subresource}, resource name; a ClusterRole bound by a
 * ClusterRoleBinding applies in every namespace and to cluster-scoped objects, a rule bound by a
 * RoleBinding only in the RoleBinding's namespace.
 */
final class Grants {
  private Grants() {}

  /** One rule as bound to the ServiceAccount: where it applies ({@code ""}: everywhere). */
  record Bound(String roleKind, String roleName, String namespace, PolicyRule rule) {
    boolean allows(Call call) {
      return (namespace.isEmpty() || namespace.equals(call.namespace()))
          && matches(rule.getVerbs(), call.verb())
          && matches(rule.getApiGroups(), call.group())
          && matches(rule.getResources(), call.resource())
          && (rule.getResourceNames() == null || rule.getResourceNames().isEmpty()
              || rule.getResourceNames().contains(call.name()));
    }

    /** The single grants of this rule: one per verb, group, resource (names kept together). */
    List<Single> singles() {
      List<Single> out = new ArrayList<>();
      for (String group : rule.getApiGroups()) {
        for (String resource : rule.getResources()) {
          for (String verb : rule.getVerbs()) {
            out.add(new Single(this, verb, group, resource));
          }
        }
      }
      return out;
    }

    String describe(String fullname) {
      String names = rule.getResourceNames() == null || rule.getResourceNames().isEmpty() ? ""
          : " " + anonymise(String.join(",", rule.getResourceNames()), fullname);
      return roleKind + " " + anonymise(roleName, fullname) + ": " + String.join(",", rule.getVerbs()) + " "
          + String.join(",", rule.getResources()) + names;
    }
  }

  /** One verb on one resource of one group, from one bound rule. */
  record Single(Bound from, String verb, String group, String resource) {
    boolean usedBy(Call call) {
      return from.allows(call) && verb.equals(call.verb()) && group.equals(call.group())
          && resource.equals(call.resource());
    }
  }

  /** One API call, as the RBAC authorizer sees it (verb lower-case, resource[/subresource]). */
  record Call(String verb, String group, String resource, String namespace, String name) {}

  /** Every rule bound to ServiceAccount {@code namespace/name} by the rendered objects. */
  static List<Bound> of(List<HasMetadata> objects, String namespace, String name) {
    List<Bound> out = new ArrayList<>();
    for (HasMetadata o : objects) {
      if (o instanceof ClusterRoleBinding b && binds(b.getSubjects(), namespace, name)) {
        clusterRole(objects, b.getRoleRef().getName()).getRules()
            .forEach(r -> out.add(new Bound("ClusterRole", b.getRoleRef().getName(), "", r)));
      } else if (o instanceof RoleBinding b && binds(b.getSubjects(), namespace, name)) {
        String ns = b.getMetadata().getNamespace();
        List<PolicyRule> rules = b.getRoleRef().getKind().equals("ClusterRole")
            ? clusterRole(objects, b.getRoleRef().getName()).getRules()
            : role(objects, ns, b.getRoleRef().getName()).getRules();
        rules.forEach(r -> out.add(new Bound(b.getRoleRef().getKind(), b.getRoleRef().getName(), ns, r)));
      }
    }
    return out;
  }

  static Optional<Bound> allowing(List<Bound> rules, Call call) {
    return rules.stream().filter(r -> r.allows(call)).findFirst();
  }

  /** {@code name} with the release's full name replaced by {@code <fullname>}. */
  static String anonymise(String name, String fullname) {
    return name.replace(fullname, "<fullname>");
  }

  private static boolean binds(List<Subject> subjects, String namespace, String name) {
    return subjects != null && subjects.stream().anyMatch(s -> "ServiceAccount".equals(s.getKind())
        && name.equals(s.getName()) && namespace.equals(s.getNamespace()));
  }

  private static boolean matches(List<String> allowed, String value) {
    return allowed != null && (allowed.contains("*") || allowed.contains(value));
  }

  private static ClusterRole clusterRole(List<HasMetadata> objects, String name) {
    return objects.stream().filter(ClusterRole.class::isInstance).map(ClusterRole.class::cast)
        .filter(r -> r.getMetadata().getName().equals(name)).findFirst()
        .orElseThrow(() -> new IllegalStateException("no ClusterRole " + name + " in the rendering"));
  }

  private static Role role(List<HasMetadata> objects, String namespace, String name) {
    return objects.stream().filter(Role.class::isInstance).map(Role.class::cast)
        .filter(r -> r.getMetadata().getName().equals(name) && namespace.equals(r.getMetadata().getNamespace()))
        .findFirst().orElseThrow(() -> new IllegalStateException("no Role " + namespace + "/" + name));
  }
}
