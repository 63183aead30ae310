package dev.kubeheadroom.installed;

import dev.kubeheadroom.kubedouble.KubeletDouble.ResizeAnswer;
import dev.kubeheadroom.kubereal.ControlPlaneBinaries;
import dev.kubeheadroom.kubereal.NodeAgent;
import dev.kubeheadroom.kubereal.RealControlPlane;
import dev.kubeheadroom.kubereal.RealKubernetes;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhook;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ServiceReference;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * A real kube-apiserver (the JVM's shared one, {@link RealKubernetes#shared()}) with a node
 * agent ({@link NodeAgent}: the kubelet's rules as a client of the real API) for its kubelets. Every stage authenticates with a token the server's
 * TokenRequest API issued to its ServiceAccount; what each called comes from the server's audit
 * log.
 *
 * <p>There is no cluster network: the server cannot reach a Service's ClusterIP. So the webhook
 * configuration's {@code clientConfig.service} is rewritten to a {@code clientConfig.url} naming
 * the webhook replica's loopback port (same path, same {@code caBundle}), and the serving
 * certificate names {@code 127.0.0.1} besides the Service's DNS names. This rewrite is the
 * harness's, never the chart's.
 */
final class RealBackend implements ClusterBackend {
  static final String LOOPBACK = "127.0.0.1";

  /** The VPA's CRD, its schema left open: Headroom reads only a VPA's target and update mode. */
  private static final CustomResourceDefinition VPA_CRD = new CustomResourceDefinitionBuilder()
      .withNewMetadata().withName("verticalpodautoscalers.autoscaling.k8s.io")
        // (a *.k8s.io group needs it; the VPA's own CRD carries this one)
        .withAnnotations(Map.of("api-approved.kubernetes.io", "https://github.com/kubernetes/kubernetes/pull/63797"))
      .endMetadata()
      .withNewSpec().withGroup("autoscaling.k8s.io").withScope("Namespaced")
        .withNewNames().withKind("VerticalPodAutoscaler").withPlural("verticalpodautoscalers")
          .withSingular("verticalpodautoscaler").withListKind("VerticalPodAutoscalerList").endNames()
        .addNewVersion().withName("v1").withServed(true).withStorage(true)
          .withNewSchema().withNewOpenAPIV3Schema().withType("object").withXKubernetesPreserveUnknownFields(true)
          .endOpenAPIV3Schema().endSchema()
        .endVersion()
      .endSpec().build();

  private final RealControlPlane plane;
  private final AuditLog audit;
  private final NodeAgent kubelet;

  private final boolean own;

  private RealBackend(RealControlPlane plane, boolean own) {
    this.plane = plane;
    this.own = own;
    this.audit = new AuditLog(plane.auditLog());
    this.kubelet = NodeAgent.start(plane.client());
  }

  /**
   * The JVM's real control plane (skips the caller where its binaries are missing, fails on CI),
   * with the VerticalPodAutoscaler CRD installed as a cluster running the VPA has it (the double
   * serves that kind too): ingest watches VPAs where the API is served.
   */
  static RealBackend shared() {
    return new RealBackend(withVpaCrd(RealKubernetes.shared()), false);
  }

  /** A real control plane of its own (a second cluster), stopped on {@link #close}. */
  static RealBackend fresh() {
    return new RealBackend(withVpaCrd(RealControlPlane.start(ControlPlaneBinaries.locate().requireOrSkip())), true);
  }

  private static RealControlPlane withVpaCrd(RealControlPlane plane) {
    var crds = plane.client().apiextensions().v1().customResourceDefinitions();
    if (crds.withName(VPA_CRD.getMetadata().getName()).get() == null) {
      crds.resource(VPA_CRD).create();
    }
    crds.withName(VPA_CRD.getMetadata().getName()).waitUntilCondition(c -> c != null && c.getStatus() != null
        && c.getStatus().getConditions().stream()
            .anyMatch(k -> "Established".equals(k.getType()) && "True".equals(k.getStatus())), 60, TimeUnit.SECONDS);
    return plane;
  }

  RealControlPlane plane() {
    return plane;
  }

  @Override
  public KubernetesClient admin() {
    return plane.client();
  }

  @Override
  public void writeKubeconfig(String namespace, String serviceAccount, Path file) {
    plane.writeKubeconfig(namespace, serviceAccount, file);
  }

  @Override
  public String serviceAccountToken(String namespace, String serviceAccount) {
    return plane.serviceAccountToken(namespace, serviceAccount);
  }

  @Override
  public List<String> webhookAddresses() {
    return List.of(LOOPBACK);
  }

  @Override
  public void routeWebhook(String configuration, ServiceReference service, int target) {
    routeToLoopback(admin(), configuration, service, target);
  }

  /**
   * Rewrites the webhooks of {@code configuration} that call {@code service} to call the same path
   * at loopback port {@code target}, for a server with no route to a Service (see the class comment).
   */
  static void routeToLoopback(KubernetesClient admin, String configuration, ServiceReference service, int target) {
    var configs = admin.admissionRegistration().v1().mutatingWebhookConfigurations();
    MutatingWebhookConfiguration live = Objects.requireNonNull(configs.withName(configuration).get(),
        () -> "no MutatingWebhookConfiguration " + configuration);
    for (MutatingWebhook webhook : live.getWebhooks()) {
      ServiceReference ref = webhook.getClientConfig().getService();
      if (ref != null && ref.getName().equals(service.getName()) && ref.getNamespace().equals(service.getNamespace())) {
        webhook.getClientConfig().setService(null);
        webhook.getClientConfig().setUrl("https://" + LOOPBACK + ":" + target + (ref.getPath() == null ? "" : ref.getPath()));
      }
    }
    configs.resource(live).update();
  }

  @Override
  public List<ApiCall> calls() {
    return audit.calls();
  }

  @Override
  public void registerNode(String name, String cpu, String memory) {
    kubelet.registerNode(name, cpu, memory);
  }

  @Override
  public void refuseResizes(String node, String message) {
    kubelet.answerResizes(node, ResizeAnswer.INFEASIBLE, message);
  }

  @Override
  public boolean sharedByClasses() {
    return !own;
  }

  /** Stops the node agent, and a server of its own; the shared one outlives the class ({@link RealKubernetes}). */
  @Override
  public void close() {
    kubelet.close();
    if (own) {
      plane.close();
    }
  }
}
