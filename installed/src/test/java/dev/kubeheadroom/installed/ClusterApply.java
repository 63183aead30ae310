package dev.kubeheadroom.installed;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhook;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * What {@code kubectl apply -f deploy/crds/}, {@code helm install --create-namespace} and
 * cert-manager do to a cluster, done to its API server with the admin client: the CRD, the
 * release namespace, the rendered objects in helm's install order, the {@code caBundle} the CA
 * injector fills in, and the runbook's {@code kubectl apply -f deploy/samples/...} (once per
 * cluster: the HeadroomConfig is a cluster singleton).
 */
final class ClusterApply {
  static final String INJECT_CA_FROM = "cert-manager.io/inject-ca-from";
  /** cert-manager's own kinds: this harness plays cert-manager instead (see WebhookCertificates). */
  private static final Set<String> CERT_MANAGER_GROUPS = Set.of("cert-manager.io");
  /** helm's install order (pkg/releaseutil/kind_sorter.go), the kinds the chart renders. */
  private static final List<String> INSTALL_ORDER = List.of("Namespace", "NetworkPolicy", "PodDisruptionBudget",
      "ServiceAccount", "Secret", "ConfigMap", "CustomResourceDefinition", "ClusterRole", "ClusterRoleBinding",
      "Role", "RoleBinding", "Service", "Deployment", "MutatingWebhookConfiguration");

  private final KubernetesClient admin;
  private final boolean awaitEstablished;

  /** @param backend the server; a real one serves a new CRD's kind only once it is Established */
  ClusterApply(ClusterBackend backend) {
    this.admin = backend.admin();
    // (the double serves a CRD's kind at once and never reports it Established)
    this.awaitEstablished = backend instanceof RealBackend;
  }

  void apply(String namespace, List<HasMetadata> objects, Optional<String> caPem) {
    for (HasMetadata crd : Chart.read(Chart.CRD_FILE)) {
      if (admin.resource(crd).get() == null) {
        admin.resource(crd).create();
      }
      if (awaitEstablished) { // as kubectl wait --for=condition=Established would
        admin.apiextensions().v1().customResourceDefinitions().withName(crd.getMetadata().getName())
            .waitUntilCondition(ClusterApply::established, 60, TimeUnit.SECONDS);
      }
    }
    if (admin.namespaces().withName(namespace).get() == null) {
      admin.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata()
          .build()).create();
    }
    List<HasMetadata> ordered = objects.stream()
        .filter(o -> !CERT_MANAGER_GROUPS.contains(group(o)))
        .sorted(Comparator.comparingInt(ClusterApply::rank)).toList();
    for (HasMetadata object : ordered) {
      if (object instanceof MutatingWebhookConfiguration config) {
        injectCa(config, caPem);
      }
      if (object instanceof GenericKubernetesResource generic) {
        admin.genericKubernetesResources(context(generic)).resource(generic).create();
      } else {
        admin.resource(object).create();
      }
    }
    for (HasMetadata sample : Chart.read(Chart.SAMPLE)) {
      GenericKubernetesResource config = (GenericKubernetesResource) sample;
      if (admin.genericKubernetesResources(context(config)).withName(config.getMetadata().getName()).get() == null) {
        admin.genericKubernetesResources(context(config)).resource(config).create();
      }
    }
  }

  /** What {@code helm uninstall} does: deletes the rendered objects, in reverse install order. */
  static void uninstall(KubernetesClient admin, List<HasMetadata> objects) {
    List<HasMetadata> ordered = objects.stream()
        .filter(o -> !CERT_MANAGER_GROUPS.contains(group(o)))
        .sorted(Comparator.comparingInt(ClusterApply::rank).reversed()).toList();
    for (HasMetadata object : ordered) {
      if (object instanceof GenericKubernetesResource generic) {
        admin.genericKubernetesResources(context(generic)).resource(generic).delete();
      } else {
        admin.resource(object).delete();
      }
    }
  }

  /** What cert-manager's CA injector does for {@code cert-manager.io/inject-ca-from}. */
  private static void injectCa(MutatingWebhookConfiguration config, Optional<String> caPem) {
    String from = config.getMetadata().getAnnotations() == null ? null
        : config.getMetadata().getAnnotations().get(INJECT_CA_FROM);
    if (from == null) {
      return;
    }
    String bundle = Base64.getEncoder().encodeToString(
        caPem.orElseThrow(() -> new IllegalStateException("no CA issued for " + from))
            .getBytes(StandardCharsets.US_ASCII));
    for (MutatingWebhook webhook : config.getWebhooks()) {
      webhook.getClientConfig().setCaBundle(bundle);
    }
  }

  private static boolean established(CustomResourceDefinition crd) {
    return crd != null && crd.getStatus() != null && crd.getStatus().getConditions() != null
        && crd.getStatus().getConditions().stream()
            .anyMatch(c -> "Established".equals(c.getType()) && "True".equals(c.getStatus()));
  }

  private static ResourceDefinitionContext context(GenericKubernetesResource r) {
    String[] gv = r.getApiVersion().split("/", 2);
    boolean namespaced = r.getMetadata().getNamespace() != null;
    return new ResourceDefinitionContext.Builder().withGroup(gv[0]).withVersion(gv[1]).withKind(r.getKind())
        .withPlural(r.getKind().toLowerCase() + "s").withNamespaced(namespaced).build();
  }

  private static String group(HasMetadata o) {
    String apiVersion = o.getApiVersion();
    return apiVersion.contains("/") ? apiVersion.substring(0, apiVersion.indexOf('/')) : "";
  }

  private static int rank(HasMetadata o) {
    int i = INSTALL_ORDER.indexOf(o.getKind());
    return i < 0 ? INSTALL_ORDER.size() : i;
  }
}
