package dev.kubeheadroom.kubereal.differential;

import dev.kubeheadroom.kubedouble.ApiServerDouble;
import dev.kubeheadroom.kubereal.RealControlPlane;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceQuota;
import io.fabric8.kubernetes.api.model.ResourceQuotaStatusBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * One of the two API servers the differential suite sends the same requests to. What differs
 * between them is only what a test needs to put in place that the servers get differently (a
 * token that was never issued, a compaction, the quota controller's status).
 */
sealed interface Front extends AutoCloseable permits Front.Double, Front.Real {

  String name();

  /** An admin client ({@code system:masters}); closed by the front. */
  KubernetesClient admin();

  /** A client as ServiceAccount {@code namespace/serviceAccount}; closed by the front. */
  KubernetesClient as(String namespace, String serviceAccount);

  /** A client whose bearer token this server never issued; closed by the front. */
  KubernetesClient stranger();

  /** The bearer token of ServiceAccount {@code namespace/serviceAccount} (what {@link #as} sends). */
  String token(String namespace, String serviceAccount);

  /** Forgets every resourceVersion before now, as etcd's compaction does. */
  void compact();

  /**
   * Puts a ResourceQuota's {@code status} where the quota controller would: the real server
   * runs none, and its admission needs {@code status.hard}; the double plays the controller.
   */
  void primeQuota(ResourceQuota quota);

  @Override
  void close();

  /** {@code kube-double}'s {@link ApiServerDouble}. */
  record Double(ApiServerDouble api, List<KubernetesClient> others) implements Front {
    Double(ApiServerDouble api) {
      this(api, new CopyOnWriteArrayList<>());
    }

    @Override
    public String name() {
      return "kube-double";
    }

    @Override
    public KubernetesClient admin() {
      return api.client();
    }

    @Override
    public KubernetesClient as(String namespace, String serviceAccount) {
      return api.clientAs(namespace, serviceAccount);
    }

    @Override
    public String token(String namespace, String serviceAccount) {
      return api.serviceAccountToken(namespace, serviceAccount);
    }

    @Override
    public KubernetesClient stranger() {
      KubernetesClient client = new KubernetesClientBuilder()
          .withConfig(new ConfigBuilder(api.config()).withOauthToken("never-issued").build()).build();
      others.add(client);
      return client;
    }

    @Override
    public void compact() {
      api.compactHistory();
    }

    @Override
    public void primeQuota(ResourceQuota quota) {}

    @Override
    public void close() {
      others.forEach(KubernetesClient::close);
      api.close();
    }
  }

  /** The JVM's real kube-apiserver ({@link RealControlPlane}), shared: not closed here. */
  record Real(RealControlPlane api, Map<String, KubernetesClient> clients, List<KubernetesClient> others)
      implements Front {
    Real(RealControlPlane api) {
      this(api, new ConcurrentHashMap<>(), new CopyOnWriteArrayList<>());
    }

    @Override
    public String name() {
      return "kube-apiserver";
    }

    @Override
    public KubernetesClient admin() {
      return api.client();
    }

    @Override
    public KubernetesClient as(String namespace, String serviceAccount) {
      return clients.computeIfAbsent(namespace + "/" + serviceAccount, k -> api.clientAs(namespace, serviceAccount));
    }

    @Override
    public String token(String namespace, String serviceAccount) {
      return api.serviceAccountToken(namespace, serviceAccount);
    }

    @Override
    public KubernetesClient stranger() {
      Config config = new ConfigBuilder(Config.empty()).withMasterUrl(api.url())
          .withCaCertData(api.caCertData()).withOauthToken("never-issued")
          .withRequestRetryBackoffLimit(0).withHttp2Disable(true).build();
      KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build();
      others.add(client);
      return client;
    }

    @Override
    public void compact() {
      api.compactEtcd();
    }

    @Override
    public void primeQuota(ResourceQuota quota) {
      ObjectMeta meta = quota.getMetadata();
      Map<String, Quantity> hard = quota.getSpec().getHard();
      Map<String, Quantity> used = new java.util.LinkedHashMap<>();
      hard.keySet().forEach(resource -> used.put(resource, new Quantity("0")));
      ResourceQuota stored = admin().resourceQuotas().inNamespace(meta.getNamespace()).withName(meta.getName()).get();
      stored.setStatus(new ResourceQuotaStatusBuilder().withHard(hard).withUsed(used).build());
      admin().resourceQuotas().inNamespace(meta.getNamespace()).resource(stored).updateStatus();
    }

    @Override
    public void close() {
      clients.values().forEach(KubernetesClient::close);
      others.forEach(KubernetesClient::close);
    }
  }
}
