package dev.kubeheadroom.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.deploy.Charts.Rendered;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.api.model.rbac.RoleRef;
import io.fabric8.kubernetes.api.model.rbac.Subject;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * RBAC exactly as docs/design/headroom-design.txt §9.4 (plus the HeadroomConfig and Lease access the stages need), and
 * split by stage: each grant is written "group/resource verb".
 */
class RbacTest {
  private static final String NS = Charts.NAMESPACE;
  private static final String SA = "system:serviceaccount:" + NS + ":" + Charts.RELEASE + "-";

  /** Informers list and watch; ConfigStatusWriter also GETs the HeadroomConfig (installed tier). */
  private static final Set<String> READS = union(informers(
      "pods", "nodes", "namespaces", "limitranges",
      "autoscaling.k8s.io/verticalpodautoscalers", "kube-headroom.dev/headroomconfigs"),
      Set.of("kube-headroom.dev/headroomconfigs get"));
  /** events.k8s.io/v1 Events get a random name (PodEvents) and are never patched. */
  private static final Set<String> EVENTS = Set.of("events.k8s.io/events create");
  /** fabric8's LeaseLock: GET, create, and take-over/renew/release with a JSON merge PATCH. */
  private static final Set<String> LEASE = Set.of("coordination.k8s.io/leases get",
      "coordination.k8s.io/leases create", "coordination.k8s.io/leases patch");
  /** ConfigStatusWriter sends a JSON merge patch to the status subresource. */
  private static final Set<String> STATUS = Set.of("kube-headroom.dev/headroomconfigs/status patch");
  /** ResizePatcher GETs each pod before it applies to pods/resize; StatusAnnotator patches the pod. */
  private static final Set<String> ACTUATOR_PODS = Set.of("pods get", "pods/resize patch", "pods patch");

  /** The metrics port's TokenReview and SubjectAccessReview (metrics.auth=kubernetes): every stage. */
  private static final Set<String> REVIEWS = Set.of(
      "authentication.k8s.io/tokenreviews create", "authorization.k8s.io/subjectaccessreviews create");

  /** Everything the whole release may do: the union of the above, nothing else. */
  private static final Set<String> ALLOWED = union(READS, EVENTS, LEASE, STATUS, ACTUATOR_PODS, REVIEWS);

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"defaults", "production.yaml", "all-in-one.yaml", "all-in-one-production.yaml"})
  void releaseGrantsExactlyTheDesignedVerbs(String values) {
    Rendered rendered = render(values);

    Set<String> granted = new TreeSet<>();
    rendered.all(ClusterRole.class).forEach(r -> granted.addAll(grants(r.getRules())));
    rendered.all(Role.class).forEach(r -> granted.addAll(grants(r.getRules())));

    assertThat(granted).isEqualTo(new TreeSet<>(ALLOWED));
    assertThat(granted).doesNotContain("pods update", "pods delete", "pods create", "pods/resize update");
    assertThat(granted).contains("pods/resize patch", "pods get", "coordination.k8s.io/leases patch");
  }

  @Test
  void noRuleUsesWildcardsAndOnlyTheReaderRolesNameUrls() {
    Rendered rendered = Charts.operator("production.yaml");
    List<PolicyRule> rules = rendered.all(ClusterRole.class).stream()
        .filter(r -> !r.getMetadata().getName().endsWith("-reader"))
        .flatMap(r -> r.getRules().stream()).collect(Collectors.toList());
    rendered.all(Role.class).forEach(r -> rules.addAll(r.getRules()));

    assertThat(rules).isNotEmpty().allSatisfy(rule -> {
      assertThat(rule.getVerbs()).doesNotContain("*");
      assertThat(rule.getResources()).doesNotContain("*");
      assertThat(rule.getApiGroups()).doesNotContain("*");
      assertThat(rule.getNonResourceURLs()).isNullOrEmpty();
    });
  }

  @Test
  void scrapersAndExplainUsersGetOneUrlEachAndNoStageHoldsThem() {
    Rendered rendered = Charts.operator();

    for (String reader : List.of("metrics", "bookings")) {
      ClusterRole role = rendered.one(ClusterRole.class, Charts.RELEASE + "-" + reader + "-reader");
      assertThat(role.getRules()).singleElement().satisfies(rule -> {
        assertThat(rule.getNonResourceURLs()).containsExactly("/" + reader);
        assertThat(rule.getVerbs()).containsExactly("get");
        assertThat(rule.getResources()).isNullOrEmpty();
      });
    }
    // bound only when the chart is told the Prometheus account
    assertThat(rendered.all(ClusterRoleBinding.class)).noneMatch(b -> b.getRoleRef().getName().endsWith("-reader"));
    ClusterRoleBinding prometheus = Charts.operatorSet(Map.of(
            "prometheus.serviceAccount.name", "prometheus-k8s", "prometheus.serviceAccount.namespace", "monitoring"))
        .one(ClusterRoleBinding.class, Charts.RELEASE + "-metrics-reader");
    assertThat(prometheus.getRoleRef().getName()).isEqualTo(Charts.RELEASE + "-metrics-reader");
    assertThat(prometheus.getSubjects()).singleElement().satisfies(s -> {
      assertThat(s.getName()).isEqualTo("prometheus-k8s");
      assertThat(s.getNamespace()).isEqualTo("monitoring");
    });
  }

  @Test
  void metricsAuthNoneGrantsNoReviewsAndShipsNoReaders() {
    Rendered rendered = Charts.operatorSet(Map.of("metrics.auth", "none"));

    assertThat(rendered.all(ClusterRole.class)).extracting(r -> r.getMetadata().getName())
        .containsExactlyInAnyOrder(Charts.RELEASE + "-ingest", Charts.RELEASE + "-actuator");
    assertThat(rendered.containers()).allSatisfy(c -> assertThat(c.getArgs()).contains("--metrics-auth=none"));
  }

  @Test
  void eachStageServiceAccountHoldsOnlyWhatItsStageUses() {
    Map<String, Set<String>> effective = effectiveGrants(Charts.operator());

    assertThat(effective.get(SA + "ingest")).isEqualTo(union(READS, STATUS, EVENTS, LEASE, REVIEWS));
    assertThat(effective.get(SA + "actuator")).isEqualTo(union(ACTUATOR_PODS, EVENTS, REVIEWS));
    // the webhook reads its state from Kafka; like the topology its only API calls are the reviews
    assertThat(effective.get(SA + "topology")).isEqualTo(REVIEWS);
    assertThat(effective.get(SA + "webhook")).isEqualTo(REVIEWS);
  }

  @Test
  void allInOneServiceAccountHoldsTheUnion() {
    Map<String, Set<String>> effective = effectiveGrants(Charts.operator("all-in-one.yaml"));

    assertThat(effective).containsOnlyKeys(SA + "all-in-one");
    assertThat(effective.get(SA + "all-in-one")).isEqualTo(ALLOWED);
  }

  @Test
  void leaseAccessIsNamespacedAndGetUpdatePatchAreLimitedToTheIngestLease() {
    Rendered rendered = Charts.operator();

    Role role = rendered.one(Role.class, Charts.RELEASE + "-leader-election");
    assertThat(role.getMetadata().getNamespace()).isEqualTo(NS);
    assertThat(role.getRules()).allSatisfy(rule -> {
      if (rule.getVerbs().contains("create")) {
        // RBAC cannot limit create by name (the name is not in the request URL)
        assertThat(rule.getResourceNames()).isNullOrEmpty();
        assertThat(rule.getVerbs()).containsExactly("create");
      } else {
        assertThat(rule.getResourceNames()).containsExactly(Charts.RELEASE + "-ingest");
        assertThat(rule.getVerbs()).containsExactlyInAnyOrder("get", "patch");
      }
    });
    Deployment ingest = rendered.deployment("ingest");
    assertThat(Rendered.flag(ingest, "--leader-election-lease")).contains(Charts.RELEASE + "-ingest");
    assertThat(Rendered.flag(ingest, "--leader-election-namespace")).contains(NS);
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"topology", "webhook"})
  void kafkaOnlyStagesRunWithoutKubernetesCredentialsWhenMetricsAuthIsNone(String stage) {
    Rendered rendered = Charts.operatorSet(Map.of("metrics.auth", "none"));

    ServiceAccount sa = rendered.one(ServiceAccount.class, Charts.RELEASE + "-" + stage);
    assertThat(sa.getAutomountServiceAccountToken()).isFalse();
    assertThat(rendered.deployment(stage).getSpec().getTemplate().getSpec().getAutomountServiceAccountToken())
        .isFalse();
  }

  @Test
  void stagesThatCallTheApiGetTheirToken() {
    Rendered rendered = Charts.operator();
    // the topology and the webhook only for the metrics port's reviews (metrics.auth=kubernetes)
    for (String stage : List.of("ingest", "actuator", "topology", "webhook")) {
      assertThat(rendered.deployment(stage).getSpec().getTemplate().getSpec().getAutomountServiceAccountToken())
          .as(stage).isTrue();
    }
    assertThat(Charts.operator("all-in-one.yaml").deployment("all-in-one").getSpec().getTemplate().getSpec()
        .getAutomountServiceAccountToken()).isTrue();
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"defaults", "all-in-one.yaml"})
  void everyDeploymentRunsAsARenderedServiceAccount(String values) {
    Rendered rendered = render(values);
    Set<String> accounts = rendered.all(ServiceAccount.class).stream()
        .map(sa -> sa.getMetadata().getName()).collect(Collectors.toSet());

    assertThat(rendered.deployments()).isNotEmpty().allSatisfy(d ->
        assertThat(accounts).contains(d.getSpec().getTemplate().getSpec().getServiceAccountName()));
  }

  // --- helpers ---

  private static Rendered render(String values) {
    return values.equals("defaults") ? Charts.operator() : Charts.operator(values);
  }

  /** Service account user name -> its grants, following every (Cluster)RoleBinding. */
  private static Map<String, Set<String>> effectiveGrants(Rendered rendered) {
    Map<String, List<PolicyRule>> roles = new HashMap<>();
    rendered.all(ClusterRole.class).forEach(r -> roles.put("ClusterRole/" + r.getMetadata().getName(), r.getRules()));
    rendered.all(Role.class).forEach(r -> roles.put("Role/" + r.getMetadata().getName(), r.getRules()));
    Map<String, Set<String>> effective = new HashMap<>();
    rendered.all(ClusterRoleBinding.class).forEach(b -> bind(effective, roles, b.getRoleRef(), b.getSubjects()));
    rendered.all(RoleBinding.class).forEach(b -> bind(effective, roles, b.getRoleRef(), b.getSubjects()));
    return effective;
  }

  private static void bind(
      Map<String, Set<String>> effective, Map<String, List<PolicyRule>> roles, RoleRef ref, List<Subject> subjects) {
    List<PolicyRule> rules = roles.get(ref.getKind() + "/" + ref.getName());
    assertThat(rules).as("binding to a rendered %s %s", ref.getKind(), ref.getName()).isNotNull();
    for (Subject s : subjects) {
      assertThat(s.getKind()).isEqualTo("ServiceAccount");
      effective.computeIfAbsent("system:serviceaccount:" + s.getNamespace() + ":" + s.getName(), k -> new TreeSet<>())
          .addAll(grants(rules));
    }
  }

  private static Set<String> grants(List<PolicyRule> rules) {
    Set<String> out = new TreeSet<>();
    for (PolicyRule rule : rules) {
      for (String group : rule.getApiGroups()) {
        for (String resource : rule.getResources()) {
          for (String verb : rule.getVerbs()) {
            out.add((group.isEmpty() ? "" : group + "/") + resource + " " + verb);
          }
        }
      }
    }
    return out;
  }

  /** list and watch on each resource ("group/resource", or a bare core resource). */
  private static Set<String> informers(String... resources) {
    Set<String> out = new TreeSet<>();
    for (String resource : resources) {
      for (String verb : List.of("list", "watch")) {
        out.add(resource + " " + verb);
      }
    }
    return out;
  }

  @SafeVarargs
  private static Set<String> union(Set<String>... sets) {
    Set<String> out = new TreeSet<>();
    for (Set<String> s : sets) {
      out.addAll(s);
    }
    return out;
  }
}
