package dev.kubeheadroom.cli.preflight;

import dev.kubeheadroom.projection.ConfigException;
import dev.kubeheadroom.projection.ConfigProjection;
import dev.kubeheadroom.schemas.HeadroomKeys;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.VersionInfo;
import io.fabric8.kubernetes.client.dsl.base.CustomResourceDefinitionContext;
import java.io.IOException;
import java.net.ConnectException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * Reads what the checks need, one list call per kind (pods: one per managed namespace). A list
 * the caller may not read becomes an unreadable {@link Listing} and its check says so; only an
 * unreachable API server, or namespaces that cannot be listed (nothing can be judged without
 * them), stop the preflight ({@link PreflightException}).
 */
public final class ClusterReader {
  /** The CRD whose presence means cert-manager is installed. */
  public static final String CERT_MANAGER_CRD = "certificates.cert-manager.io";

  static final CustomResourceDefinitionContext HEADROOM_CONFIG = new CustomResourceDefinitionContext.Builder()
      .withGroup(HeadroomKeys.GROUP).withVersion(HeadroomKeys.VERSION).withKind(ConfigProjection.KIND)
      .withPlural("headroomconfigs").withScope("Cluster").build();

  static final CustomResourceDefinitionContext VPA = new CustomResourceDefinitionContext.Builder()
      .withGroup("autoscaling.k8s.io").withVersion("v1").withKind("VerticalPodAutoscaler")
      .withPlural("verticalpodautoscalers").withScope("Namespaced").build();

  private ClusterReader() {}

  /** @throws PreflightException when the API server cannot be reached or namespaces not listed */
  public static Cluster read(KubernetesClient client) {
    KubeVersion version = version(client);
    ConfigState config = config(client);
    List<Namespace> namespaces;
    try {
      namespaces = client.namespaces().list().getItems();
    } catch (KubernetesClientException e) {
      throw new PreflightException("cannot list namespaces (" + describe(e) + "); preflight needs list on "
          + "namespaces, resourcequotas, limitranges, nodes, pods and verticalpodautoscalers");
    }
    List<String> managed = Cluster.managedNamespaces(namespaces, config.inForce());
    return new Cluster(version, config, namespaces,
        list("resourcequotas", () -> client.resourceQuotas().inAnyNamespace().list().getItems()),
        list("limitranges", () -> client.limitRanges().inAnyNamespace().list().getItems()),
        list("nodes", () -> client.nodes().list().getItems()),
        list("pods", () -> {
          List<Pod> pods = new ArrayList<>();
          for (String ns : managed) {
            pods.addAll(client.pods().inNamespace(ns).list().getItems());
          }
          return pods;
        }),
        list("verticalpodautoscalers", () -> optional(
            () -> client.genericKubernetesResources(VPA).inAnyNamespace().list().getItems())),
        list("customresourcedefinitions", () -> {
          CustomResourceDefinition crd =
              client.apiextensions().v1().customResourceDefinitions().withName(CERT_MANAGER_CRD).get();
          return crd == null ? List.of() : List.of(crd);
        }));
  }

  private static KubeVersion version(KubernetesClient client) {
    VersionInfo info;
    try {
      info = client.getKubernetesVersion();
    } catch (KubernetesClientException e) {
      if (unreachable(e)) {
        throw PreflightException.unreachable("cannot reach the Kubernetes API server at " + client.getMasterUrl()
            + " (" + describe(e) + ")");
      }
      throw new PreflightException("GET /version on " + client.getMasterUrl() + " failed (" + describe(e) + ")");
    }
    if (info == null) {
      throw new PreflightException("GET /version on " + client.getMasterUrl() + " answered nothing");
    }
    return KubeVersion.parse(info.getMajor(), info.getMinor(), info.getGitVersion());
  }

  private static ConfigState config(KubernetesClient client) {
    GenericKubernetesResource object;
    try {
      object = client.genericKubernetesResources(HEADROOM_CONFIG).withName(HeadroomKeys.CONFIG_NAME).get();
    } catch (KubernetesClientException e) {
      return e.getCode() == 404 ? new ConfigState.Absent() : new ConfigState.Unreadable(describe(e));
    }
    if (object == null) {
      return new ConfigState.Absent();
    }
    try {
      return new ConfigState.Valid(ConfigProjection.project(object));
    } catch (ConfigException e) {
      return new ConfigState.Refused(e.field(), e.getMessage());
    }
  }

  private static <T> Listing<T> list(String what, Supplier<List<T>> read) {
    try {
      return Listing.of(read.get());
    } catch (KubernetesClientException e) {
      if (unreachable(e)) {
        throw PreflightException.unreachable("lost the Kubernetes API server while listing " + what + " (" + describe(e) + ")");
      }
      return Listing.unreadable("cannot list " + what + " (" + describe(e) + ")");
    }
  }

  /** An optional API (a CRD that may not be installed): 404 means none. */
  private static <T> List<T> optional(Supplier<List<T>> read) {
    try {
      return read.get();
    } catch (KubernetesClientException e) {
      if (e.getCode() == 404) {
        return List.of();
      }
      throw e;
    }
  }

  /** No HTTP answer at all: refused, timed out, TLS failed (an I/O error somewhere in the causes). */
  static boolean unreachable(KubernetesClientException e) {
    for (Throwable c = e; c != null; c = c.getCause() == c ? null : c.getCause()) {
      // a request timing out (fabric8's requestTimeout) is the server not answering, as a refused
      // connection is: both mean "unavailable" (exit 4), not a failed check
      if (c instanceof IOException || c instanceof TimeoutException) {
        return true;
      }
    }
    return false;
  }

  /** {@code 403 Forbidden}, or the root cause of a transport failure, on one line. */
  static String describe(KubernetesClientException e) {
    if (!unreachable(e) && e.getCode() > 0) {
      String reason = e.getStatus() != null && e.getStatus().getReason() != null ? " " + e.getStatus().getReason() : "";
      return e.getCode() + reason;
    }
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      if (root instanceof ConnectException && root.getMessage() == null) {
        // the JDK client's refused connection: ConnectException(null) over ClosedChannelException
        return "Connection refused";
      }
      root = root.getCause();
    }
    String message = root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
    return message.replaceAll("\\s+", " ").trim();
  }
}
