package dev.kubeheadroom.kubereal.differential;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.kubedouble.ApiServerDouble;
import dev.kubeheadroom.kubereal.RealControlPlane;
import dev.kubeheadroom.kubereal.WithRealKubernetes;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesResourceList;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBuilder;
import io.fabric8.kubernetes.api.model.rbac.PolicyRuleBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Ingest's reads in the grants table (deploy/README.md), as its ServiceAccount bound to the
 * chart's ingest ClusterRole: cluster-wide LISTs of pods, nodes, namespaces, LimitRanges,
 * VerticalPodAutoscalers and HeadroomConfigs, the GET of the config, and what is refused beyond
 * them (a Secret list, a pod write): the same answers and the same objects of this test seen.
 */
@WithRealKubernetes
class IngestReadsDifferentialTest {
  private static Both both;
  private static String ns;

  @BeforeAll
  static void start(RealControlPlane api) {
    both = new Both(api);
    Crds.install(api);
    ns = both.ns("diff-ingest");
    both.given(f -> {
      Given.namespace(f, ns);
      Given.pod(f, ns, "web", "500m", "1");
      Given.containerMaxCpu(f, ns, "4");
      WatchAndListDifferentialTest.vpa(f, ns, "web");
      bindTheIngestRole(f.admin());
      f.admin().genericKubernetesResources(ApiServerDouble.HEADROOM_CONFIG).withName("cluster").withGracePeriod(0)
          .delete();
      GenericKubernetesResource config = new GenericKubernetesResource();
      config.setApiVersion("kube-headroom.dev/v1alpha1");
      config.setKind("HeadroomConfig");
      config.setMetadata(new ObjectMetaBuilder().withName("cluster").build());
      config.setAdditionalProperty("spec", Map.of("dryRun", true));
      f.admin().genericKubernetesResources(ApiServerDouble.HEADROOM_CONFIG).resource(config).create();
    });
  }

  @AfterAll
  static void stop() {
    both.close();
  }

  /** The chart's ingest ClusterRole (deploy/README.md's grants table), bound to {@code ns/ingest}. */
  private static void bindTheIngestRole(KubernetesClient admin) {
    String name = ns + "-ingest";
    admin.rbac().clusterRoles().resource(new ClusterRoleBuilder().withNewMetadata().withName(name).endMetadata()
        .withRules(
            new PolicyRuleBuilder().withApiGroups("").withResources("pods", "nodes", "namespaces", "limitranges")
                .withVerbs("list", "watch").build(),
            new PolicyRuleBuilder().withApiGroups("autoscaling.k8s.io").withResources("verticalpodautoscalers")
                .withVerbs("list", "watch").build(),
            new PolicyRuleBuilder().withApiGroups("kube-headroom.dev").withResources("headroomconfigs")
                .withVerbs("get", "list", "watch").build(),
            new PolicyRuleBuilder().withApiGroups("kube-headroom.dev").withResources("headroomconfigs/status")
                .withVerbs("patch").build(),
            new PolicyRuleBuilder().withApiGroups("events.k8s.io").withResources("events").withVerbs("create").build())
        .build()).create();
    admin.rbac().clusterRoleBindings().resource(new ClusterRoleBindingBuilder().withNewMetadata().withName(name)
        .endMetadata().withNewRoleRef().withApiGroup("rbac.authorization.k8s.io").withKind("ClusterRole")
        .withName(name).endRoleRef()
        .addNewSubject().withKind("ServiceAccount").withName("ingest").withNamespace(ns).endSubject().build())
        .create();
  }

  /** A cluster-wide LIST as ingest: the names of the items this test made (others share the server). */
  private static <T extends HasMetadata> Answer listAs(Front f,
      Function<KubernetesClient, KubernetesResourceList<T>> list, Predicate<T> ours) {
    KubernetesClient ingest = f.as(ns, "ingest");
    return Answer.of(() -> list.apply(ingest).getItems().stream().filter(ours)
        .map(o -> o.getMetadata().getName()).sorted().toList().toString());
  }

  private static <T extends HasMetadata> boolean inOurNamespace(T o) {
    return ns.equals(o.getMetadata().getNamespace());
  }

  @Test
  void ingestListsEveryKindItWatchesClusterWide() {
    assertThat(both.same(f -> listAs(f, c -> c.pods().inAnyNamespace().list(),
        IngestReadsDifferentialTest::inOurNamespace)).result()).isEqualTo("[web]");
    assertThat(both.same(f -> listAs(f, c -> c.nodes().list(), n -> n.getMetadata().getName().equals(Given.NODE)))
        .result()).isEqualTo("[n1]");
    assertThat(both.same(f -> listAs(f, c -> c.namespaces().list(), n -> n.getMetadata().getName().equals(ns)))
        .result()).isEqualTo("[" + ns + "]");
    assertThat(both.same(f -> listAs(f, c -> c.limitRanges().inAnyNamespace().list(),
        IngestReadsDifferentialTest::inOurNamespace)).result()).isEqualTo("[caps]");
    assertThat(both.same(f -> listAs(f, c -> c.genericKubernetesResources(ApiServerDouble.VERTICAL_POD_AUTOSCALER)
        .inAnyNamespace().list(), IngestReadsDifferentialTest::inOurNamespace)).result()).isEqualTo("[web]");
    assertThat(both.same(f -> listAs(f, c -> c.genericKubernetesResources(ApiServerDouble.HEADROOM_CONFIG).list(),
        o -> true)).result()).isEqualTo("[cluster]");
  }

  @Test
  void ingestGetsTheConfig() {
    Answer answer = both.same(f -> Answer.of(() -> {
      GenericKubernetesResource config = f.as(ns, "ingest")
          .genericKubernetesResources(ApiServerDouble.HEADROOM_CONFIG).withName("cluster").get();
      return config.getMetadata().getName() + " generation=" + config.getMetadata().getGeneration();
    }));
    assertThat(answer.result()).isEqualTo("cluster generation=1");
  }

  @Test
  void whatTheRoleDoesNotGrantIsRefused() {
    assertThat(both.same(f -> Answer.of(() -> f.as(ns, "ingest").secrets().inNamespace(ns).list().toString()))
        .code()).isEqualTo(403);
    assertThat(both.same(f -> Answer.of(() -> f.as(ns, "ingest").pods().inNamespace(ns).withName("web").get()
        .toString())).code()).isEqualTo(403);
  }
}
