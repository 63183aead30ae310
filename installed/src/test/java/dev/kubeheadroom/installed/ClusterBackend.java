package dev.kubeheadroom.installed;

import io.fabric8.kubernetes.api.model.admissionregistration.v1.ServiceReference;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.util.List;

/**
 * What the installed tier needs of the API server it installs the chart into: the API double
 * ({@link DoubleBackend}, which also takes faults), a real kube-apiserver ({@link RealBackend}), or
 * the real node's cluster, kubelet included ({@link RealNodeBackend}).
 * One tier, two servers: {@link Cluster} and {@link Installation} go through this alone.
 */
sealed interface ClusterBackend extends AutoCloseable permits DoubleBackend, RealBackend, RealNodeBackend {

  /** A cluster-admin client; shared, do not close. */
  KubernetesClient admin();

  /** Writes a kubeconfig authenticating as ServiceAccount {@code namespace/serviceAccount}. */
  void writeKubeconfig(String namespace, String serviceAccount, Path file);

  /** A bearer token of ServiceAccount {@code namespace/serviceAccount} (e.g. a scraper's). */
  String serviceAccountToken(String namespace, String serviceAccount);

  /**
   * The IP addresses the webhook's serving certificate must name besides the Service's DNS names:
   * those the API server dials it at ({@link #routeWebhook}).
   */
  List<String> webhookAddresses();

  /**
   * Makes the API server's calls for webhook configuration {@code configuration}'s Service
   * {@code service} reach loopback port {@code target} (what kube-proxy does in a cluster).
   */
  void routeWebhook(String configuration, ServiceReference service, int target);

  /** Every request the server answered so far, in order. */
  List<ApiCall> calls();

  /** Registers a Linux Node with this capacity and allocatable, as its kubelet would. */
  void registerNode(String name, String cpu, String memory);

  /** Makes the kubelet of {@code node} answer every resize Infeasible with {@code message}. */
  void refuseResizes(String node, String message);

  /** Whether other test classes share this server (so what a class creates must be removed). */
  boolean sharedByClasses();

  @Override
  void close();
}
