package dev.kubeheadroom.installed;

import dev.kubeheadroom.kubereal.RealNode;
import dev.kubeheadroom.kubereal.ServiceAccountTokens;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ServiceReference;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.util.List;

/**
 * The real node's cluster ({@link RealNode}: {@code tools/real-node/start}'s kube-apiserver and a
 * real kubelet with containerd and runc): the kubelet, not a stand-in, runs the pods and answers
 * their resizes. As on {@link RealBackend}, stages authenticate with TokenRequest tokens, calls come
 * from the server's audit log, and the webhook is called at a loopback URL (no cluster network).
 * Its one node registers itself: a test cannot add nodes or program the kubelet's answers.
 */
final class RealNodeBackend implements ClusterBackend {
  private final RealNode node;
  private final KubernetesClient admin;
  private final ServiceAccountTokens tokens;
  private final AuditLog audit;

  RealNodeBackend(RealNode node) {
    this.node = node;
    this.admin = node.client();
    this.tokens = node.serviceAccounts(admin);
    this.audit = new AuditLog(node.auditLog());
  }

  @Override
  public KubernetesClient admin() {
    return admin;
  }

  @Override
  public void writeKubeconfig(String namespace, String serviceAccount, Path file) {
    tokens.writeKubeconfig(namespace, serviceAccount, file);
  }

  @Override
  public String serviceAccountToken(String namespace, String serviceAccount) {
    return tokens.token(namespace, serviceAccount);
  }

  @Override
  public List<String> webhookAddresses() {
    return List.of(RealBackend.LOOPBACK);
  }

  @Override
  public void routeWebhook(String configuration, ServiceReference service, int target) {
    RealBackend.routeToLoopback(admin, configuration, service, target);
  }

  @Override
  public List<ApiCall> calls() {
    return audit.calls();
  }

  @Override
  public void registerNode(String name, String cpu, String memory) {
    throw new UnsupportedOperationException("the real node's one kubelet registers " + RealNode.NODE + " itself");
  }

  @Override
  public void refuseResizes(String node, String message) {
    throw new UnsupportedOperationException("the real kubelet answers resizes by its own rules");
  }

  @Override
  public boolean sharedByClasses() {
    return false;
  }

  /** Closes the client; the node itself is the test's to stop. */
  @Override
  public void close() {
    admin.close();
  }

  @Override
  public String toString() {
    return "the real node's cluster (" + node.kubeconfig() + ")";
  }
}
