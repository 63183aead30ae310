package dev.kubeheadroom.kubedouble;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhook;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfigurationBuilder;
import java.util.Map;

/**
 * Webhook configurations, namespaces and pods for the admission tests: a webhook Service
 * {@code svc} in namespace {@code webhooks} (certificates name {@code svc.webhooks.svc}), pods in
 * namespace {@link TestPods#NS}.
 */
final class AdmissionFixtures {
  static final String SERVICE_NAMESPACE = "webhooks";
  static final String SERVICE = "svc";
  static final String SERVICE_HOST = SERVICE + "." + SERVICE_NAMESPACE + ".svc";
  static final String MODE = "kube-headroom.dev/mode";

  private AdmissionFixtures() {}

  /**
   * A webhook for pod CREATE calling the Service with {@code caBundle}, failurePolicy Fail, no
   * selectors, the default timeout (10 s: under this machine's load a first TLS handshake can take
   * seconds): tests change one knob at a time.
   */
  static MutatingWebhookBuilder webhook(String name, String caBundle) {
    return new MutatingWebhookBuilder().withName(name).withAdmissionReviewVersions("v1")
        .withNewClientConfig().withCaBundle(caBundle)
        .withNewService().withNamespace(SERVICE_NAMESPACE).withName(SERVICE).withPath(TestWebhookServer.PATH)
        .withPort(443).endService().endClientConfig()
        .withFailurePolicy("Fail").withSideEffects("None")
        .addNewRule().withApiGroups("").withApiVersions("v1").withOperations("CREATE").withResources("pods")
        .withScope("Namespaced").endRule();
  }

  static MutatingWebhookConfiguration configuration(String name, MutatingWebhook... webhooks) {
    return new MutatingWebhookConfigurationBuilder().withNewMetadata().withName(name).endMetadata()
        .withWebhooks(webhooks).build();
  }

  /** Stores the configuration (through the API, as Helm would). */
  static void install(ApiServerDouble api, MutatingWebhookConfiguration configuration) {
    api.client().admissionRegistration().v1().mutatingWebhookConfigurations().resource(configuration).create();
  }

  /** Stores a namespace with these labels. */
  static void namespace(ApiServerDouble api, String name, Map<String, String> labels) {
    api.seedClient().namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(name)
        .withLabels(labels).endMetadata().build()).create();
  }

  /** A Burstable pod in {@link TestPods#NS}: 500m CPU requested, no CPU limit, these labels. */
  static Pod pod(String name, Map<String, String> labels) {
    return new PodBuilder(TestPods.burstable(name, "n1", "500m", null)).editMetadata().withLabels(labels)
        .endMetadata().build();
  }

  /** Creates the pod through the API as a workload controller would. */
  static Pod create(ApiServerDouble api, Pod pod) {
    return api.client().pods().inNamespace(TestPods.NS).resource(pod).create();
  }
}
