package dev.kubeheadroom.kubedouble;

import static dev.kubeheadroom.kubedouble.TestPods.NS;
import static dev.kubeheadroom.kubedouble.TestPods.burstable;
import static dev.kubeheadroom.kubedouble.TestPods.cpuLimitOnly;
import static dev.kubeheadroom.kubedouble.TestPods.headroomApply;
import static dev.kubeheadroom.kubedouble.TestRbac.clusterRole;
import static dev.kubeheadroom.kubedouble.TestRbac.clusterRoleBinding;
import static dev.kubeheadroom.kubedouble.TestRbac.group;
import static dev.kubeheadroom.kubedouble.TestRbac.namedRule;
import static dev.kubeheadroom.kubedouble.TestRbac.role;
import static dev.kubeheadroom.kubedouble.TestRbac.roleBinding;
import static dev.kubeheadroom.kubedouble.TestRbac.rule;
import static dev.kubeheadroom.kubedouble.TestRbac.serviceAccount;
import static dev.kubeheadroom.kubedouble.TestRbac.user;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * RBAC over the Roles, ClusterRoles and bindings stored in the double, one Kubernetes rule per
 * test. Sources: plugin/pkg/auth/authorizer/rbac/rbac.go (RuleAllows, the binding walk),
 * pkg/registry/rbac/validation/rule.go (VisitRulesFor, appliesToUser),
 * pkg/apis/rbac/v1/evaluation_helpers.go (the matchers),
 * staging/src/k8s.io/apiserver/pkg/endpoints/request/requestinfo.go (verb, resource, name),
 * staging/src/k8s.io/apiserver/pkg/endpoints/handlers/responsewriters/errors.go (the 403 body).
 */
class RbacAuthorizationTest {
  private static final String SA_NS = "headroom";
  private static final String SA = "actuator";
  private static final String USER = "system:serviceaccount:headroom:actuator";

  private ApiServerDouble api;
  private KubernetesClient admin;
  private KubernetesClient actuator;

  @BeforeEach
  void start() {
    api = ApiServerDouble.start();
    admin = api.client();
    actuator = api.clientAs(SA_NS, SA);
    api.seedClient().pods().inNamespace(NS).resource(burstable("web-1", "n1", "500m", "1")).create();
    api.seedClient().pods().inNamespace(NS).resource(burstable("web-2", "n1", "500m", "1")).create();
  }

  @AfterEach
  void stop() {
    api.close();
  }

  private void grantCluster(io.fabric8.kubernetes.api.model.rbac.PolicyRule... rules) {
    clusterRole(admin, "headroom-actuator", rules);
    clusterRoleBinding(admin, "headroom-actuator", "headroom-actuator", serviceAccount(SA_NS, SA));
  }

  private static void assertForbidden(ThrowingCallable call, String message) {
    assertThatThrownBy(call).isInstanceOfSatisfying(KubernetesClientException.class, e -> {
      assertThat(e.getCode()).isEqualTo(403);
      assertThat(e.getStatus().getReason()).isEqualTo("Forbidden");
      assertThat(e.getStatus().getMessage()).isEqualTo(message);
    });
  }

  private Pod resize(KubernetesClient client, String name, String cpu) {
    return client.pods().inNamespace(NS).resource(cpuLimitOnly(name, "app", cpu)).subresource("resize")
        .patch(headroomApply());
  }

  private Pod annotate(KubernetesClient client, String name) {
    return client.pods().inNamespace(NS).withName(name).patch(PatchContext.of(PatchType.JSON_MERGE),
        "{\"metadata\":{\"annotations\":{\"kube-headroom.dev/status\":\"ok\"}}}");
  }

  /** rbac.go: a ClusterRoleBinding's ClusterRole rules apply in every namespace. */
  @Test
  void aClusterRoleBoundToTheServiceAccountAllowsItsVerbsEverywhere() {
    grantCluster(rule("", List.of("pods"), "get", "list"));

    assertThat(actuator.pods().inNamespace(NS).withName("web-1").get().getMetadata().getName()).isEqualTo("web-1");
    assertThat(actuator.pods().inAnyNamespace().list().getItems()).hasSize(2);
    assertThat(actuator.pods().inNamespace("elsewhere").list().getItems()).isEmpty();
  }

  /** rbac.go VerbMatches + errors.go forbiddenMessage / apierrors.NewForbidden. */
  @Test
  void aMissingVerbIsForbiddenWithKubeApiserversExactMessageAndDetails() {
    grantCluster(rule("", List.of("pods"), "list", "watch", "patch"));

    assertThatThrownBy(() -> actuator.pods().inNamespace(NS).withName("web-1").get())
        .isInstanceOfSatisfying(KubernetesClientException.class, e -> {
          assertThat(e.getCode()).isEqualTo(403);
          assertThat(e.getStatus().getReason()).isEqualTo("Forbidden");
          assertThat(e.getStatus().getMessage()).isEqualTo("pods \"web-1\" is forbidden: User \"" + USER
              + "\" cannot get resource \"pods\" in API group \"\" in the namespace \"team-a\"");
          assertThat(e.getStatus().getDetails().getName()).isEqualTo("web-1");
          assertThat(e.getStatus().getDetails().getKind()).isEqualTo("pods");
          assertThat(e.getStatus().getDetails().getGroup()).isNull(); // omitempty
        });
    assertForbidden(() -> actuator.nodes().list(), "nodes is forbidden: User \"" + USER
        + "\" cannot list resource \"nodes\" in API group \"\" at the cluster scope");
  }

  /** NewForbidden qualifies the resource with its group: {@code leases.coordination.k8s.io "x"}. */
  @Test
  void aDenialInANamedApiGroupQualifiesTheResource() {
    assertThatThrownBy(() -> actuator.leases().inNamespace(SA_NS).resource(new LeaseBuilder().withNewMetadata()
        .withName("headroom-ingest").endMetadata().build()).create())
        .isInstanceOfSatisfying(KubernetesClientException.class, e -> {
          assertThat(e.getStatus().getMessage()).isEqualTo("leases.coordination.k8s.io is forbidden: User \""
              + USER + "\" cannot create resource \"leases\" in API group \"coordination.k8s.io\" in the namespace \"headroom\"");
          assertThat(e.getStatus().getDetails().getGroup()).isEqualTo("coordination.k8s.io");
          assertThat(e.getStatus().getDetails().getKind()).isEqualTo("leases");
        });
  }

  /** evaluation_helpers.go ResourceMatches: a subresource is matched as {@code pods/resize} only. */
  @Test
  void resizeNeedsThePodsResizeGrantAndAPodsGrantIsNotEnough() {
    grantCluster(rule("", List.of("pods"), "get", "patch"));

    assertForbidden(() -> resize(actuator, "web-1", "2"), "pods \"web-1\" is forbidden: User \"" + USER
        + "\" cannot patch resource \"pods/resize\" in API group \"\" in the namespace \"team-a\"");
    assertThatCode(() -> annotate(actuator, "web-1")).doesNotThrowAnyException();
  }

  /** ...and the other way round: {@code pods/resize} grants nothing on the pod itself. */
  @Test
  void aPodsResizeGrantAllowsTheResizeButNotAPatchOfThePod() {
    // get on pods too: fabric8's withName(..).patch(context, String) GETs the pod before patching
    grantCluster(rule("", List.of("pods/resize"), "patch"), rule("", List.of("pods"), "get"));

    assertThat(resize(actuator, "web-1", "2").getSpec().getContainers().get(0).getResources().getLimits().get("cpu"))
        .hasToString("2");
    assertForbidden(() -> annotate(actuator, "web-1"), "pods \"web-1\" is forbidden: User \"" + USER
        + "\" cannot patch resource \"pods\" in API group \"\" in the namespace \"team-a\"");
  }

  /** ResourceMatches: {@code *}{@code /resize} matches the subresource of any resource. */
  @Test
  void aWildcardResourceWithTheSubresourceAllowsTheResize() {
    grantCluster(rule("", List.of("*/resize"), "patch"));

    assertThatCode(() -> resize(actuator, "web-1", "2")).doesNotThrowAnyException();
  }

  /**
   * ResourceNameMatches: resourceNames limit get/update/patch; create, list and watch have no name
   * in their request attributes (requestinfo.go), so a rule with resourceNames never allows them.
   */
  @Test
  void resourceNamesLimitGetAndPatchButCannotAllowCreateOrList() {
    grantCluster(namedRule("", "pods", List.of("web-1"), "get", "patch", "create", "list"));

    assertThatCode(() -> actuator.pods().inNamespace(NS).withName("web-1").get()).doesNotThrowAnyException();
    assertThatCode(() -> annotate(actuator, "web-1")).doesNotThrowAnyException();
    assertForbidden(() -> actuator.pods().inNamespace(NS).withName("web-2").get(), "pods \"web-2\" is forbidden: "
        + "User \"" + USER + "\" cannot get resource \"pods\" in API group \"\" in the namespace \"team-a\"");
    assertForbidden(() -> actuator.pods().inNamespace(NS).resource(burstable("web-1", "n1", "1", "1")).create(),
        "pods is forbidden: User \"" + USER + "\" cannot create resource \"pods\" in API group \"\" in the namespace \"team-a\"");
    assertForbidden(() -> actuator.pods().inNamespace(NS).list(), "pods is forbidden: User \"" + USER
        + "\" cannot list resource \"pods\" in API group \"\" in the namespace \"team-a\"");
  }

  /** requestinfo.go: a list with {@code fieldSelector=metadata.name=X} is a request for name X. */
  @Test
  void aListSelectingOneNameIsARequestForThatName() {
    grantCluster(namedRule("", "pods", List.of("web-1"), "list"));

    assertThat(actuator.pods().inNamespace(NS).withField("metadata.name", "web-1").list().getItems()).hasSize(1);
    assertForbidden(() -> actuator.pods().inNamespace(NS).withField("metadata.name", "web-2").list(),
        "pods \"web-2\" is forbidden: User \"" + USER
            + "\" cannot list resource \"pods\" in API group \"\" in the namespace \"team-a\"");
  }

  /** rule.go VisitRulesFor: a RoleBinding to a ClusterRole grants its rules in the binding's namespace only. */
  @Test
  void aRoleBindingToAClusterRoleGrantsItInTheBindingsNamespaceOnly() {
    clusterRole(admin, "pod-reader", rule("", List.of("pods"), "get", "list"));
    roleBinding(admin, NS, "actuator-reads-pods", "ClusterRole", "pod-reader", serviceAccount(SA_NS, SA));

    assertThat(actuator.pods().inNamespace(NS).list().getItems()).hasSize(2);
    assertForbidden(() -> actuator.pods().inNamespace("team-b").list(), "pods is forbidden: User \"" + USER
        + "\" cannot list resource \"pods\" in API group \"\" in the namespace \"team-b\"");
    assertForbidden(() -> actuator.pods().inAnyNamespace().list(), "pods is forbidden: User \"" + USER
        + "\" cannot list resource \"pods\" in API group \"\" at the cluster scope");
  }

  /** rule.go appliesToUser: a Role in the namespace, a subject without namespace meaning the binding's. */
  @Test
  void aRoleBindingToARoleAndANamespacelessServiceAccountSubject() {
    role(admin, SA_NS, "leases", rule("coordination.k8s.io", List.of("leases"), "get", "create"));
    roleBinding(admin, SA_NS, "leases", "Role", "leases",
        new io.fabric8.kubernetes.api.model.rbac.SubjectBuilder().withKind("ServiceAccount").withName(SA).build());

    assertThatCode(() -> actuator.leases().inNamespace(SA_NS).resource(new LeaseBuilder().withNewMetadata()
        .withName("headroom-ingest").endMetadata().build()).create()).doesNotThrowAnyException();
    assertForbidden(() -> actuator.leases().inNamespace(SA_NS).withName("headroom-ingest")
        .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"holderIdentity\":\"me\"}}"),
        "leases.coordination.k8s.io \"headroom-ingest\" is forbidden: User \"" + USER
            + "\" cannot patch resource \"leases\" in API group \"coordination.k8s.io\" in the namespace \"headroom\"");
  }

  /** appliesToUser: Group and User subjects; ServiceAccount tokens carry system:serviceaccounts:NS. */
  @Test
  void groupAndUserSubjectsMatchTheTokensGroupsAndName() {
    clusterRole(admin, "node-reader", rule("", List.of("nodes"), "list"));
    clusterRole(admin, "pod-reader", rule("", List.of("pods"), "list"));
    clusterRoleBinding(admin, "nodes-to-headroom-sas", "node-reader", group("system:serviceaccounts:headroom"));
    clusterRoleBinding(admin, "pods-to-the-user", "pod-reader", user(USER));

    assertThatCode(() -> actuator.nodes().list()).doesNotThrowAnyException();
    assertThatCode(() -> actuator.pods().inNamespace(NS).list()).doesNotThrowAnyException();
    KubernetesClient other = api.clientAs("elsewhere", SA);
    assertThatThrownBy(() -> other.nodes().list())
        .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(403));
  }

  /** rbac.go Authorize: a binding whose role is missing grants nothing; the reason names it. */
  @Test
  void aBindingToAMissingRoleGrantsNothingAndTheDenialSaysWhy() {
    clusterRoleBinding(admin, "dangling", "not-installed", serviceAccount(SA_NS, SA));

    assertForbidden(() -> actuator.pods().inNamespace(NS).list(), "pods is forbidden: User \"" + USER
        + "\" cannot list resource \"pods\" in API group \"\" in the namespace \"team-a\": "
        + "RBAC: clusterrole.rbac.authorization.k8s.io \"not-installed\" not found");
  }

  /** requestinfo.go: a watch is its own verb; list does not grant it (informers need both). */
  @Test
  void aWatchNeedsTheWatchVerb() {
    clusterRole(admin, "pod-lister", rule("", List.of("pods"), "list"));
    clusterRoleBinding(admin, "pod-lister", "pod-lister", serviceAccount(SA_NS, SA));

    assertThatThrownBy(() -> actuator.pods().inNamespace(NS).watch(new AuthenticationTest.NoOpWatcher()))
        .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(403));
    assertThat(api.requests().refused()).last().satisfies(e -> {
      assertThat(e.attributes().verb()).isEqualTo("watch");
      assertThat(e.attributes().resource()).isEqualTo("pods");
    });

    clusterRole(admin, "pod-watcher", rule("", List.of("pods"), "watch"));
    clusterRoleBinding(admin, "pod-watcher", "pod-watcher", serviceAccount(SA_NS, SA));
    assertThatCode(() -> actuator.pods().inNamespace(NS).watch(new AuthenticationTest.NoOpWatcher()).close())
        .doesNotThrowAnyException();
  }

  /**
   * bootstrappolicy/policy.go: system:discovery, system:public-info-viewer and system:basic-user
   * are bound to system:authenticated, so any ServiceAccount may read discovery and create self
   * subject reviews; another non-resource path is denied with the path form of the message.
   */
  @Test
  void discoveryAndSelfSubjectReviewsAreAllowedToEveryAuthenticatedUser() throws Exception {
    assertThat(actuator.getKubernetesVersion().getGitVersion()).isEqualTo("v1.35.0");
    HttpClient http = HttpClient.newHttpClient();
    String token = api.serviceAccountToken(SA_NS, SA);
    for (String path : List.of("api", "apis", "api/v1", "apis/apps/v1", "openapi/v2", "openapi/v3", "healthz", "version")) {
      int code = http.send(HttpRequest.newBuilder(URI.create(api.url() + path)).header("Authorization", "Bearer " + token)
          .build(), HttpResponse.BodyHandlers.ofString()).statusCode();
      assertThat(code).as(path).isNotIn(401, 403);
    }
    HttpResponse<String> review = http.send(HttpRequest.newBuilder(URI.create(api.url()
        + "apis/authorization.k8s.io/v1/selfsubjectaccessreviews")).header("Authorization", "Bearer " + token)
        .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(
            "{\"apiVersion\":\"authorization.k8s.io/v1\",\"kind\":\"SelfSubjectAccessReview\",\"spec\":"
                + "{\"resourceAttributes\":{\"verb\":\"get\",\"resource\":\"pods\",\"namespace\":\"team-a\"}}}"))
        .build(), HttpResponse.BodyHandlers.ofString());
    assertThat(review.statusCode()).isNotIn(401, 403);
    HttpResponse<String> metrics = http.send(HttpRequest.newBuilder(URI.create(api.url() + "metrics"))
        .header("Authorization", "Bearer " + token).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(metrics.statusCode()).isEqualTo(403);
    assertThat(metrics.body()).contains("\"message\":\"forbidden: User \\\"" + USER
        + "\\\" cannot get path \\\"/metrics\\\"\"");
  }

  /** The privileged-group authorizer runs before RBAC: system:masters is never denied. */
  @Test
  void theAdminClientsBypassRbac() {
    assertThatCode(() -> {
      admin.nodes().list();
      api.newClient().pods().inAnyNamespace().list();
      resize(admin, "web-1", "2");
    }).doesNotThrowAnyException();
    assertThat(api.requests().refused()).isEmpty();
  }
}
