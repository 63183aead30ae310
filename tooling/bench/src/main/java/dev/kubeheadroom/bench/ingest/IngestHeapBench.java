package dev.kubeheadroom.bench.ingest;

import dev.kubeheadroom.ingest.PodFieldStripper;
import dev.kubeheadroom.ingest.StrippedPodStore;
import dev.kubeheadroom.projection.PodProjection;
import dev.kubeheadroom.schemas.PodSnapshot;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.informers.cache.BasicItemStore;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.informers.cache.ItemStore;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.lang.management.ManagementFactory;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import java.util.UUID;

/**
 * Retained heap of the ingest pod cache for N realistic pods (default 150,000): fabric8's plain
 * {@link BasicItemStore} holding pods as the informer deserializes them, against
 * {@link StrippedPodStore}, plus the publisher's last-published {@link PodSnapshot} per uid.
 *
 * <p>Each pod is bound from JSON the way a watch delivers it (managedFields, env, probes, volumes,
 * container statuses, conditions). Heap is "used after GC" from the MemoryMXBean, before and
 * after filling, with the store still referenced. Run with a heap big enough for the plain store:
 *
 * <pre>
 * java -Xmx6g -cp tooling/bench/target/benchmarks.jar dev.kubeheadroom.bench.ingest.IngestHeapBench [pods]
 * </pre>
 */
public final class IngestHeapBench {
  private IngestHeapBench() {}

  public static void main(String[] args) {
    int pods = args.length > 0 ? Integer.parseInt(args[0]) : 150_000;
    System.out.printf("pods: %,d; JVM %s, max heap %d MB%n", pods, System.getProperty("java.version"),
        Runtime.getRuntime().maxMemory() >> 20);

    long stripped = measure("stripped store (StrippedPodStore)", pods,
        new StrippedPodStore(new PodFieldStripper()), false);
    long strippedAndSnapshots = measure("stripped store + last-published snapshots", pods,
        new StrippedPodStore(new PodFieldStripper()), true);
    long plain = measure("plain store (fabric8 BasicItemStore)", pods,
        new BasicItemStore<>(Cache::metaNamespaceKeyFunc), false);
    System.out.printf("%nsaved by stripping: %.0f%% (%d MB of %d MB)%n",
        100.0 * (plain - stripped) / plain, (plain - stripped) >> 20, plain >> 20);
    System.out.printf("ingest pod state with stripping: %d MB for %,d pods (%d bytes/pod)%n",
        strippedAndSnapshots >> 20, pods, strippedAndSnapshots / pods);
  }

  private static long measure(String label, int pods, ItemStore<Pod> store, boolean snapshots) {
    long before = usedAfterGc();
    Random random = new Random(42);
    Map<String, PodSnapshot> published = snapshots ? new HashMap<>() : null;
    long started = System.nanoTime();
    for (int i = 0; i < pods; i++) {
      Pod pod = Serialization.unmarshal(podJson(random, i), Pod.class);
      String key = store.getKey(pod);
      store.put(key, pod);
      if (published != null) {
        Pod cached = store.get(key);
        PodProjection.project(cached, false).ifPresent(s -> published.put(s.uid(), s));
      }
    }
    long fillMillis = (System.nanoTime() - started) / 1_000_000;
    long after = usedAfterGc();
    long retained = after - before;
    System.out.printf("%-45s %,6d MB retained (%,d bytes/pod), filled in %,d ms%n",
        label, retained >> 20, retained / pods, fillMillis);
    if (store.size() != pods || (published != null && published.size() != pods)) {
      throw new IllegalStateException("store lost pods: " + store.size());
    }
    return retained;
  }

  private static long usedAfterGc() {
    for (int i = 0; i < 4; i++) {
      System.gc();
    }
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  /** A pod as a watch delivers it: 200 namespaces, 1–3 app containers, a sidecar in one of four. */
  static String podJson(Random random, int i) {
    String ns = "team-" + (i % 200);
    String deployment = "svc-" + (i % 3000);
    String hash = Integer.toHexString(0x10000 + (i % 3000) * 7).substring(0, 5);
    String name = deployment + "-" + hash + "-" + Integer.toString(i, 36);
    String node = "node-" + (i % 5000);
    int containers = 1 + random.nextInt(3);
    boolean sidecar = random.nextInt(4) == 0;
    StringBuilder c = new StringBuilder();
    for (int k = 0; k < containers; k++) {
      int req = 50 * (1 + random.nextInt(20));
      c.append(k == 0 ? "" : ",").append(container("app-" + k, req + "m", (req * 2) + "m", false));
    }
    String init = sidecar ? "\"initContainers\":[" + container("istio-proxy", "100m", "2", true) + "]," : "";
    StringBuilder statuses = new StringBuilder();
    for (int k = 0; k < containers; k++) {
      statuses.append(k == 0 ? "" : ",").append("{\"name\":\"app-").append(k)
          .append("\",\"ready\":true,\"restartCount\":0,\"started\":true,\"image\":\"registry.example/")
          .append(deployment).append(":1.4.2\",\"imageID\":\"registry.example/").append(deployment)
          .append("@sha256:").append(UUID.randomUUID().toString().replace("-", ""))
          .append("\",\"containerID\":\"containerd://").append(UUID.randomUUID().toString().replace("-", ""))
          .append("\",\"state\":{\"running\":{\"startedAt\":\"2026-01-01T00:00:10Z\"}},")
          .append("\"allocatedResources\":{\"cpu\":\"100m\",\"memory\":\"256Mi\"},")
          .append("\"resources\":{\"requests\":{\"cpu\":\"100m\",\"memory\":\"256Mi\"}}}");
    }
    return "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{"
        + "\"name\":\"" + name + "\",\"namespace\":\"" + ns + "\",\"uid\":\"" + UUID.randomUUID() + "\","
        + "\"resourceVersion\":\"" + (1_000_000 + i) + "\",\"generation\":1,"
        + "\"creationTimestamp\":\"2026-01-01T00:00:00Z\",\"generateName\":\"" + deployment + "-" + hash + "-\","
        + "\"labels\":{\"app.kubernetes.io/name\":\"" + deployment + "\",\"app.kubernetes.io/part-of\":\"shop\","
        + "\"pod-template-hash\":\"" + hash + "\",\"security.istio.io/tlsMode\":\"istio\","
        + "\"service.istio.io/canonical-name\":\"" + deployment + "\"},"
        + "\"annotations\":{\"kubectl.kubernetes.io/restartedAt\":\"2026-01-01T00:00:00Z\","
        + "\"prometheus.io/scrape\":\"true\",\"prometheus.io/port\":\"9090\","
        + "\"cni.projectcalico.org/podIP\":\"10." + (i >> 16 & 255) + "." + (i >> 8 & 255) + "." + (i & 255) + "/32\"},"
        + "\"ownerReferences\":[{\"apiVersion\":\"apps/v1\",\"kind\":\"ReplicaSet\",\"name\":\"" + deployment + "-" + hash
        + "\",\"uid\":\"" + UUID.randomUUID() + "\",\"controller\":true,\"blockOwnerDeletion\":true}],"
        + "\"managedFields\":[{\"manager\":\"kube-controller-manager\",\"operation\":\"Update\",\"apiVersion\":\"v1\","
        + "\"time\":\"2026-01-01T00:00:00Z\",\"fieldsType\":\"FieldsV1\",\"fieldsV1\":{\"f:metadata\":{\"f:generateName\":{},"
        + "\"f:labels\":{\".\":{},\"f:app.kubernetes.io/name\":{},\"f:pod-template-hash\":{}},\"f:ownerReferences\":{}},"
        + "\"f:spec\":{\"f:containers\":{},\"f:dnsPolicy\":{},\"f:restartPolicy\":{},\"f:schedulerName\":{}}}},"
        + "{\"manager\":\"kubelet\",\"operation\":\"Update\",\"apiVersion\":\"v1\",\"time\":\"2026-01-01T00:00:12Z\","
        + "\"fieldsType\":\"FieldsV1\",\"subresource\":\"status\",\"fieldsV1\":{\"f:status\":{\"f:conditions\":{},"
        + "\"f:containerStatuses\":{},\"f:hostIP\":{},\"f:phase\":{},\"f:podIP\":{},\"f:podIPs\":{},\"f:startTime\":{}}}}]},"
        + "\"spec\":{" + init + "\"containers\":[" + c + "],\"nodeName\":\"" + node + "\","
        + "\"restartPolicy\":\"Always\",\"terminationGracePeriodSeconds\":30,\"dnsPolicy\":\"ClusterFirst\","
        + "\"serviceAccountName\":\"" + deployment + "\",\"schedulerName\":\"default-scheduler\",\"priority\":0,"
        + "\"enableServiceLinks\":true,\"preemptionPolicy\":\"PreemptLowerPriority\",\"securityContext\":{\"runAsNonRoot\":true},"
        + "\"tolerations\":[{\"key\":\"node.kubernetes.io/not-ready\",\"operator\":\"Exists\",\"effect\":\"NoExecute\",\"tolerationSeconds\":300},"
        + "{\"key\":\"node.kubernetes.io/unreachable\",\"operator\":\"Exists\",\"effect\":\"NoExecute\",\"tolerationSeconds\":300}],"
        + "\"volumes\":[{\"name\":\"kube-api-access-" + Integer.toString(i, 36) + "\",\"projected\":{\"defaultMode\":420,\"sources\":["
        + "{\"serviceAccountToken\":{\"expirationSeconds\":3607,\"path\":\"token\"}},"
        + "{\"configMap\":{\"name\":\"kube-root-ca.crt\",\"items\":[{\"key\":\"ca.crt\",\"path\":\"ca.crt\"}]}},"
        + "{\"downwardAPI\":{\"items\":[{\"path\":\"namespace\",\"fieldRef\":{\"apiVersion\":\"v1\",\"fieldPath\":\"metadata.namespace\"}}]}}]}}]},"
        + "\"status\":{\"phase\":\"Running\",\"qosClass\":\"Burstable\",\"hostIP\":\"192.168." + (i % 5000 / 250) + "." + (i % 250) + "\","
        + "\"podIP\":\"10." + (i >> 16 & 255) + "." + (i >> 8 & 255) + "." + (i & 255) + "\","
        + "\"podIPs\":[{\"ip\":\"10." + (i >> 16 & 255) + "." + (i >> 8 & 255) + "." + (i & 255) + "\"}],"
        + "\"startTime\":\"2026-01-01T00:00:01Z\",\"conditions\":["
        + "{\"type\":\"PodReadyToStartContainers\",\"status\":\"True\",\"lastTransitionTime\":\"2026-01-01T00:00:05Z\"},"
        + "{\"type\":\"Initialized\",\"status\":\"True\",\"lastTransitionTime\":\"2026-01-01T00:00:02Z\"},"
        + "{\"type\":\"Ready\",\"status\":\"True\",\"lastTransitionTime\":\"2026-01-01T00:00:12Z\"},"
        + "{\"type\":\"ContainersReady\",\"status\":\"True\",\"lastTransitionTime\":\"2026-01-01T00:00:12Z\"},"
        + "{\"type\":\"PodScheduled\",\"status\":\"True\",\"lastTransitionTime\":\"2026-01-01T00:00:00Z\"}],"
        + "\"containerStatuses\":[" + statuses + "]}}";
  }

  private static String container(String name, String cpuRequest, String cpuLimit, boolean sidecar) {
    return "{\"name\":\"" + name + "\",\"image\":\"registry.example/" + name + ":1.4.2\","
        + (sidecar ? "\"restartPolicy\":\"Always\"," : "")
        + "\"args\":[\"--port=8080\",\"--log-level=info\"],"
        + "\"ports\":[{\"name\":\"http\",\"containerPort\":8080,\"protocol\":\"TCP\"}],"
        + "\"env\":[{\"name\":\"GOMAXPROCS\",\"valueFrom\":{\"resourceFieldRef\":{\"resource\":\"limits.cpu\",\"divisor\":\"1\"}}},"
        + "{\"name\":\"POD_NAME\",\"valueFrom\":{\"fieldRef\":{\"apiVersion\":\"v1\",\"fieldPath\":\"metadata.name\"}}},"
        + "{\"name\":\"LOG_FORMAT\",\"value\":\"json\"}],"
        + "\"resources\":{\"requests\":{\"cpu\":\"" + cpuRequest + "\",\"memory\":\"256Mi\"},"
        + "\"limits\":{\"cpu\":\"" + cpuLimit + "\",\"memory\":\"512Mi\"}},"
        + "\"resizePolicy\":[{\"resourceName\":\"cpu\",\"restartPolicy\":\"NotRequired\"},"
        + "{\"resourceName\":\"memory\",\"restartPolicy\":\"RestartContainer\"}],"
        + "\"readinessProbe\":{\"httpGet\":{\"path\":\"/ready\",\"port\":8080,\"scheme\":\"HTTP\"},\"periodSeconds\":10,"
        + "\"timeoutSeconds\":1,\"successThreshold\":1,\"failureThreshold\":3},"
        + "\"livenessProbe\":{\"httpGet\":{\"path\":\"/healthz\",\"port\":8080,\"scheme\":\"HTTP\"},\"periodSeconds\":10,"
        + "\"timeoutSeconds\":1,\"successThreshold\":1,\"failureThreshold\":3},"
        + "\"volumeMounts\":[{\"name\":\"kube-api-access\",\"readOnly\":true,\"mountPath\":\"/var/run/secrets/kubernetes.io/serviceaccount\"}],"
        + "\"terminationMessagePath\":\"/dev/termination-log\",\"terminationMessagePolicy\":\"File\","
        + "\"imagePullPolicy\":\"IfNotPresent\",\"securityContext\":{\"allowPrivilegeEscalation\":false,"
        + "\"capabilities\":{\"drop\":[\"ALL\"]},\"readOnlyRootFilesystem\":true}}";
  }
}
