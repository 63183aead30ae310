package dev.kubeheadroom.kubedouble;

import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBuilder;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.PolicyRuleBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;
import io.fabric8.kubernetes.api.model.rbac.Subject;
import io.fabric8.kubernetes.api.model.rbac.SubjectBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;

/** RBAC objects for tests, created through the admin client as a Helm chart would install them. */
final class TestRbac {
  private TestRbac() {}

  static PolicyRule rule(String apiGroup, List<String> resources, String... verbs) {
    return new PolicyRuleBuilder().withApiGroups(apiGroup).withResources(resources).withVerbs(verbs).build();
  }

  static PolicyRule namedRule(String apiGroup, String resource, List<String> names, String... verbs) {
    return new PolicyRuleBuilder().withApiGroups(apiGroup).withResources(resource)
        .withResourceNames(names).withVerbs(verbs).build();
  }

  static Subject serviceAccount(String namespace, String name) {
    return new SubjectBuilder().withKind("ServiceAccount").withNamespace(namespace).withName(name).build();
  }

  static Subject group(String name) {
    return new SubjectBuilder().withKind("Group").withApiGroup(RbacAuthorizer.GROUP).withName(name).build();
  }

  static Subject user(String name) {
    return new SubjectBuilder().withKind("User").withApiGroup(RbacAuthorizer.GROUP).withName(name).build();
  }

  static void clusterRole(KubernetesClient admin, String name, PolicyRule... rules) {
    admin.rbac().clusterRoles().resource(new ClusterRoleBuilder().withNewMetadata().withName(name).endMetadata()
        .withRules(rules).build()).create();
  }

  static void role(KubernetesClient admin, String namespace, String name, PolicyRule... rules) {
    admin.rbac().roles().inNamespace(namespace).resource(new RoleBuilder().withNewMetadata().withName(name)
        .withNamespace(namespace).endMetadata().withRules(rules).build()).create();
  }

  static void clusterRoleBinding(KubernetesClient admin, String name, String clusterRole, Subject... subjects) {
    admin.rbac().clusterRoleBindings().resource(new ClusterRoleBindingBuilder().withNewMetadata().withName(name)
        .endMetadata().withNewRoleRef(RbacAuthorizer.GROUP, "ClusterRole", clusterRole).withSubjects(subjects)
        .build()).create();
  }

  static void roleBinding(KubernetesClient admin, String namespace, String name, String roleKind, String role,
      Subject... subjects) {
    admin.rbac().roleBindings().inNamespace(namespace).resource(new RoleBindingBuilder().withNewMetadata()
        .withName(name).withNamespace(namespace).endMetadata().withNewRoleRef(RbacAuthorizer.GROUP, roleKind, role)
        .withSubjects(subjects).build()).create();
  }
}
