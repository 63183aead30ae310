package dev.kubeheadroom.kubedouble;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Events a kubelet records about a pod's resize ({@code pkg/kubelet/events/resize.go},
 * {@code allocation_manager.go} {@code handlePodResourcesResize}, {@code kubelet.go}): core
 * {@code v1} Events from source component {@code kubelet} on the pod's node, as client-go's
 * recorder writes them ({@code reportingComponent} the source component, {@code reportingInstance}
 * the node). Since v1.35 a kubelet says {@code ResizeStarted} when it allocates a resize, Warning
 * {@code ResizeDeferred} / {@code ResizeInfeasible} when the pending condition's reason or
 * generation changes, Warning {@code ResizeError} when actuation fails, and {@code ResizeCompleted}
 * when it is actuated; v1.34 says only {@code ResizeCompleted}, without the generation.
 */
public final class KubeletEvents {
  private static final Logger LOG = LoggerFactory.getLogger(KubeletEvents.class);
  /** The source and reporting component of every kubelet Event. */
  public static final String COMPONENT = "kubelet";
  /** The release whose kubelet added ResizeStarted, ResizeError and the generation to messages. */
  static final int STARTED_SINCE_MINOR = 35;

  /** One Event: {@code Normal} or {@code Warning}, its reason and message. */
  public record KubeletEvent(String type, String reason, String message) {}

  private KubeletEvents() {}

  static List<KubeletEvent> started(JsonNode pod, long generation, ServerVersion version) {
    return version.atLeast(STARTED_SINCE_MINOR)
        ? List.of(new KubeletEvent("Normal", "ResizeStarted", message("Pod resize started", pod, generation, "", version)))
        : List.of();
  }

  static List<KubeletEvent> completed(JsonNode pod, long generation, ServerVersion version) {
    return List.of(new KubeletEvent("Normal", "ResizeCompleted", message("Pod resize completed", pod, generation, "", version)));
  }

  /** {@code reason}: {@code Deferred} or {@code Infeasible}. */
  static List<KubeletEvent> pending(JsonNode pod, long generation, String reason, String error, ServerVersion version) {
    return version.atLeast(STARTED_SINCE_MINOR)
        ? List.of(new KubeletEvent("Warning", "Resize" + reason, message("Pod resize " + reason, pod, generation, error, version)))
        : List.of();
  }

  static List<KubeletEvent> error(JsonNode pod, long generation, String error, ServerVersion version) {
    return version.atLeast(STARTED_SINCE_MINOR)
        ? List.of(new KubeletEvent("Warning", "ResizeError", message("Pod resize error", pod, generation, error, version)))
        : List.of();
  }

  /** {@code prefix: {"containers":[{"name":…,"resources":…}],"generation":N,"error":…}}, the desired resources. */
  private static String message(String prefix, JsonNode pod, long generation, String error, ServerVersion version) {
    ObjectNode summary = JsonNodeFactory.instance.objectNode();
    ArrayNode containers = summary.putArray("containers");
    for (JsonNode container : pod.path("spec").path("containers")) {
      ObjectNode entry = containers.addObject().put("name", container.path("name").asText());
      ObjectNode resources = entry.putObject("resources");
      for (String kind : new String[] {"limits", "requests"}) {
        if (container.path("resources").path(kind).size() > 0) {
          resources.set(kind, container.path("resources").path(kind).deepCopy());
        }
      }
    }
    if (version.atLeast(STARTED_SINCE_MINOR)) {
      summary.put("generation", generation);
      if (!error.isEmpty()) {
        summary.put("error", error);
      }
    }
    return prefix + ": " + summary;
  }

  /** Writes {@code events} about {@code pod} as the kubelet of {@code node}; a refused write is logged. */
  public static void write(KubernetesClient client, JsonNode pod, String node, List<KubeletEvent> events, Instant now) {
    JsonNode meta = pod.path("metadata");
    String namespace = meta.path("namespace").asText();
    String seconds = now.truncatedTo(ChronoUnit.SECONDS).toString(); // metav1.Time: RFC 3339, seconds
    for (KubeletEvent e : events) {
      try {
        client.v1().events().inNamespace(namespace).resource(new EventBuilder()
            .withNewMetadata().withNamespace(namespace)
                .withName(meta.path("name").asText() + "." + Long.toHexString(ThreadLocalRandom.current().nextLong()))
            .endMetadata()
            .withInvolvedObject(new ObjectReferenceBuilder().withApiVersion("v1").withKind("Pod")
                .withNamespace(namespace).withName(meta.path("name").asText()).withUid(meta.path("uid").asText())
                .build())
            .withType(e.type()).withReason(e.reason()).withMessage(e.message())
            .withNewSource().withComponent(COMPONENT).withHost(node).endSource()
            .withReportingComponent(COMPONENT).withReportingInstance(node)
            .withFirstTimestamp(seconds).withLastTimestamp(seconds).withCount(1)
            .build()).create();
      } catch (KubernetesClientException ex) {
        LOG.debug("kubelet Event {} on Pod({}/{}) not written: {}", e.reason(), namespace, meta.path("name").asText(),
            ex.getMessage());
      }
    }
  }
}
