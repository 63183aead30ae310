package dev.kubeheadroom.actuator;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.kubeheadroom.projection.CpuQuantity;
import dev.kubeheadroom.schemas.HeadroomKeys;
import dev.kubeheadroom.schemas.JsonCodec;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.util.Locale;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes the {@code kube-headroom.dev/status} annotation (docs/design/headroom-design.txt §8.1, docs/design/config.md) with a JSON
 * merge patch that touches only that annotation, guarded by the pod's uid. A failure is logged
 * and counted by the caller; it never changes the resize outcome.
 *
 * <p>Written as field manager {@code headroom}, like every Headroom write: an update entry in
 * {@code managedFields}, apart from the apply entry of the resizes, so those neither own nor drop
 * the annotation.
 */
final class StatusAnnotator {
  private static final Logger LOG = LoggerFactory.getLogger(StatusAnnotator.class);
  private static final PatchContext MERGE_PATCH = new PatchContext.Builder()
      .withPatchType(PatchType.JSON_MERGE).withFieldManager(HeadroomKeys.FIELD_MANAGER).build();

  private final KubernetesClient client;

  StatusAnnotator(KubernetesClient client) {
    this.client = Objects.requireNonNull(client, "client");
  }

  /** The annotation's content, in the documented key order. */
  @JsonPropertyOrder({"factor", "slack", "managedRequests", "nodePods", "targetLimit", "policy",
      "dryRun", "computedAt"})
  record Status(String factor, String slack, String managedRequests, int nodePods,
      String targetLimit, String policy, boolean dryRun, String computedAt) {

    static Status of(PodWork work) {
      return new Status(
          String.format(Locale.ROOT, "%.2f", work.stats().factor()),
          CpuQuantity.formatMilli(work.stats().slackMilli()),
          CpuQuantity.formatMilli(work.stats().managedRequestsMilli()),
          work.stats().nodePods(),
          CpuQuantity.formatMilli(work.change().targetMilli()),
          work.policy(),
          work.dryRun(),
          work.at().toString());
    }

    String toJson() {
      return JsonCodec.encodeToString(this);
    }

    Status withoutTime() {
      return new Status(factor, slack, managedRequests, nodePods, targetLimit, policy, dryRun, "");
    }
  }

  /**
   * Whether {@code current} (a pod's annotation, or null) already says what {@code work} would
   * write, {@code computedAt} aside: the same node figures, target, policy and mode. Anything that
   * does not read as a status (hand-edited, an older format) does not.
   */
  static boolean explains(String current, PodWork work) {
    if (current == null) {
      return false;
    }
    try {
      Status now = JsonCodec.decode(current.getBytes(java.nio.charset.StandardCharsets.UTF_8), Status.class);
      return now != null && now.withoutTime().equals(Status.of(work).withoutTime());
    } catch (RuntimeException e) {
      return false;
    }
  }

  /**
   * True when the annotation was written. The patch goes through {@code resource(pod)}: fabric8's
   * {@code withName(..).patch(context, String)} first GETs the pod, one more request per change.
   */
  boolean annotate(PodWork work) {
    Pod patch = new PodBuilder().withApiVersion("v1").withKind("Pod")
        .withNewMetadata().withName(work.change().name()).withNamespace(work.change().namespace())
        .withUid(work.uid())
        .addToAnnotations(HeadroomKeys.STATUS_ANNOTATION, Status.of(work).toJson())
        .endMetadata().build();
    try {
      client.pods().inNamespace(work.change().namespace()).resource(patch)
          .patch(MERGE_PATCH);
      return true;
    } catch (KubernetesClientException e) {
      LOG.warn("{}: cannot write the status annotation ({}): {}", work.describe(), e.getCode(),
          e.getStatus() != null ? e.getStatus().getMessage() : e.getMessage());
      return false;
    }
  }
}
