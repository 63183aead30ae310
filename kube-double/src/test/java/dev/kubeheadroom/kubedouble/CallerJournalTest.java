package dev.kubeheadroom.kubedouble;

import static dev.kubeheadroom.kubedouble.TestPods.NS;
import static dev.kubeheadroom.kubedouble.TestPods.burstable;
import static dev.kubeheadroom.kubedouble.TestPods.cpuLimitOnly;
import static dev.kubeheadroom.kubedouble.TestPods.headroomApply;
import static dev.kubeheadroom.kubedouble.TestRbac.clusterRole;
import static dev.kubeheadroom.kubedouble.TestRbac.clusterRoleBinding;
import static dev.kubeheadroom.kubedouble.TestRbac.rule;
import static dev.kubeheadroom.kubedouble.TestRbac.serviceAccount;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The journal records who called and what the authorizer saw (the attributes of
 * staging/src/k8s.io/apiserver/pkg/endpoints/request/requestinfo.go), so a test can list every
 * API call a stage made as its ServiceAccount and whether RBAC let it through.
 */
class CallerJournalTest {
  private ApiServerDouble api;

  @BeforeEach
  void start() {
    api = ApiServerDouble.start();
    api.seedClient().pods().inNamespace(NS).resource(burstable("web-1", "n1", "500m", "1")).create();
  }

  @AfterEach
  void stop() {
    api.close();
  }

  @Test
  void aPatchIsRecordedWithItsBodyAndOtherRequestsWithNone() {
    // (a test tells a repeated resize from a new one by what it asked for)
    api.client().pods().inNamespace(NS).resource(cpuLimitOnly("web-1", "app", "2")).subresource("resize")
        .patch(headroomApply());
    api.client().pods().inNamespace(NS).withName("web-1").get();

    List<RequestJournal.Entry> entries = api.requests().entries();
    assertThat(entries.get(0).describe()).isEqualTo("patch pods/resize team-a/web-1 -> 200");
    assertThat(entries.get(0).body()).contains("\"cpu\":\"2\"").contains("\"name\":\"app\"");
    assertThat(entries.get(1).body()).isEmpty();
  }

  @Test
  void listsEveryCallPerServiceAccountWithItsVerdict() {
    clusterRole(api.client(), "actuator", rule("", List.of("pods"), "get"), rule("", List.of("pods/resize"), "patch"));
    clusterRoleBinding(api.client(), "actuator", "actuator", serviceAccount("headroom", "actuator"));
    KubernetesClient actuator = api.clientAs("headroom", "actuator");
    KubernetesClient ingest = api.clientAs("headroom", "ingest");

    actuator.pods().inNamespace(NS).withName("web-1").get();
    actuator.pods().inNamespace(NS).resource(cpuLimitOnly("web-1", "app", "2")).subresource("resize").patch(headroomApply());
    catchThrowable(() -> actuator.pods().inNamespace(NS).withName("web-1")
        .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"metadata\":{\"labels\":{\"a\":\"b\"}}}"));
    catchThrowable(() -> actuator.nodes().list());
    catchThrowable(() -> ingest.pods().inAnyNamespace().list());

    assertThat(api.requests().by("headroom", "actuator")).extracting(RequestJournal.Entry::describe).containsExactly(
        "get pods team-a/web-1 -> 200",
        "patch pods/resize team-a/web-1 -> 200",
        "get pods team-a/web-1 -> 200", // fabric8 reads the pod before a JSON merge patch by name
        "patch pods team-a/web-1 -> 403 (denied)",
        "list nodes -> 403 (denied)");
    assertThat(api.requests().by("headroom", "ingest")).singleElement().satisfies(e -> {
      assertThat(e.caller().name()).isEqualTo("system:serviceaccount:headroom:ingest");
      assertThat(e.caller().serviceAccountKey()).contains("headroom/ingest");
      assertThat(e.attributes()).isEqualTo(new RequestAttributes("list", true, "/api/v1/pods", "", "v1", "", "pods", "", ""));
      assertThat(e.authorized()).isFalse();
    });
    assertThat(api.requests().byCaller().keySet()).containsExactly("kube-double:admin",
        "system:serviceaccount:headroom:actuator", "system:serviceaccount:headroom:ingest");
    assertThat(api.requests().refused()).hasSize(3);
    // the older accessors keep counting every answered request
    assertThat(api.requests().count(RequestMatcher.resize())).isEqualTo(1);
    assertThat(api.requests().count(RequestMatcher.podPatch(), 403)).isEqualTo(1);
  }

  @Test
  void seedRequestsStayUnrecordedAndTheSeedHeaderIsHonouredOnlyForTheAdmin() {
    api.seedClient().pods().inNamespace(NS).withName("web-1").get();
    assertThat(api.requests().entries()).isEmpty();

    // a ServiceAccount sending the seed header is traffic like any other (and is authorized)
    KubernetesClient pretender = new io.fabric8.kubernetes.client.KubernetesClientBuilder().withConfig(
        new io.fabric8.kubernetes.client.ConfigBuilder(api.configAs("headroom", "ingest"))
            .withCustomHeaders(java.util.Map.of(ApiServerDispatcher.SEED_HEADER, "true")).build()).build();
    try (pretender) {
      catchThrowable(() -> pretender.pods().inNamespace(NS).withName("web-1").get());
    }
    assertThat(api.requests().entries()).singleElement()
        .satisfies(e -> assertThat(e.describe()).isEqualTo("get pods team-a/web-1 -> 403 (denied)"));
  }
}
