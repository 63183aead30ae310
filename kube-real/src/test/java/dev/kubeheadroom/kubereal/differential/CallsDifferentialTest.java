package dev.kubeheadroom.kubereal.differential;

import static dev.kubeheadroom.kubereal.differential.Both.resize;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.kubedouble.ApiServerDouble;
import dev.kubeheadroom.kubereal.RealControlPlane;
import dev.kubeheadroom.kubereal.WithRealKubernetes;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.MicroTime;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseSpec;
import io.fabric8.kubernetes.api.model.events.v1.Event;
import io.fabric8.kubernetes.api.model.events.v1.EventBuilder;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaderElectionRecord;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The writes in the grants table (deploy/README.md), as the product sends them, to the double and
 * to the real kube-apiserver: the same answer and the same fields of the result the product reads.
 */
@WithRealKubernetes
class CallsDifferentialTest {
  private static final PatchContext MERGE = new PatchContext.Builder().withPatchType(PatchType.JSON_MERGE)
      .withFieldManager("headroom").build();
  private static final ZonedDateTime AT = ZonedDateTime.of(2026, 12, 1, 12, 0, 0, 0, ZoneOffset.UTC);
  private static Both both;

  @BeforeAll
  static void start(RealControlPlane api) {
    both = new Both(api);
    Crds.install(api);
  }

  @AfterAll
  static void stop() {
    both.close();
  }

  @Test
  void theActuatorsResizeApplyChangesTheLimitAndNothingElse() {
    String ns = both.ns("diff-resize");
    both.given(f -> {
      Given.namespace(f, ns);
      Given.pod(f, ns, "web", "500m", "1");
      Given.grant(f, ns, "actuator", List.of("get", "patch"), List.of("pods", "pods/resize"));
    });
    Answer answer = both.same(f -> resize(f.as(ns, "actuator"), ns, "web", "1500m"));
    assertThat(answer.result()).contains("app=500m/1500m");
    // the same apply again: accepted, nothing changes
    both.same(f -> resize(f.as(ns, "actuator"), ns, "web", "1500m"));
  }

  @Test
  void theStatusAnnotationIsAMergePatchOnThePod() {
    String ns = both.ns("diff-annotate");
    both.given(f -> {
      Given.namespace(f, ns);
      Given.pod(f, ns, "web", "500m", "1");
    });
    both.same(f -> Answer.of(() -> {
      Pod current = f.admin().pods().inNamespace(ns).withName("web").get();
      Pod patch = new PodBuilder().withApiVersion("v1").withKind("Pod").withNewMetadata().withName("web")
          .withNamespace(ns).withUid(current.getMetadata().getUid())
          .addToAnnotations("kube-headroom.dev/status", "{\"result\":\"applied\"}").endMetadata().build();
      Pod out = f.admin().pods().inNamespace(ns).resource(patch).patch(MERGE);
      return out.getMetadata().getAnnotations() + " " + Both.resources(out);
    }));
  }

  @Test
  void anEventIsCreatedAsPodEventsWritesIt() {
    String ns = both.ns("diff-event");
    both.given(f -> {
      Given.namespace(f, ns);
      Given.pod(f, ns, "web", "500m", "1");
    });
    both.same(f -> Answer.of(() -> {
      Event event = new EventBuilder().withNewMetadata().withName("web.1a2b3c").withNamespace(ns).endMetadata()
          .withRegarding(new ObjectReferenceBuilder().withApiVersion("v1").withKind("Pod").withNamespace(ns)
              .withName("web").build())
          .withReason("CPULimitAdjusted").withType("Normal").withNote("cpu limit 1 -> 1500m").withAction("Resize")
          .withReportingController("kube-headroom.dev/actuator").withReportingInstance("actuator-0")
          .withEventTime(new MicroTime("2026-12-01T12:00:00.123456Z")).build();
      Event out = f.admin().events().v1().events().inNamespace(ns).resource(event).create();
      return out.getReason() + " " + out.getType() + " " + out.getNote() + " " + out.getEventTime().getTime()
          + " " + out.getRegarding().getName();
    }));
  }

  @Test
  void theIngestLeaderCreatesAndRenewsItsLease() {
    String ns = both.ns("diff-lease");
    both.given(f -> Given.namespace(f, ns));
    both.same(f -> Answer.of(() -> {
      LeaseLock lock = new LeaseLock(ns, "ingest", "ingest-0");
      lock.create(f.admin(), new LeaderElectionRecord("ingest-0", Duration.ofSeconds(15), AT, AT, 0));
      lock.get(f.admin());
      lock.update(f.admin(), new LeaderElectionRecord("ingest-0", Duration.ofSeconds(15), AT, AT.plusSeconds(2), 0));
      LeaseSpec spec = f.admin().leases().inNamespace(ns).withName("ingest").get().getSpec();
      return spec.getHolderIdentity() + " " + spec.getLeaseDurationSeconds() + " " + spec.getAcquireTime()
          + " " + spec.getRenewTime() + " " + spec.getLeaseTransitions();
    }));
  }

  @Test
  void ingestWritesTheConfigsStatusThroughTheSubresource() {
    both.given(f -> f.admin().genericKubernetesResources(ApiServerDouble.HEADROOM_CONFIG).withName("cluster")
        .withGracePeriod(0).delete());
    both.same(f -> Answer.of(() -> {
      GenericKubernetesResource config = new GenericKubernetesResource();
      config.setApiVersion("kube-headroom.dev/v1alpha1");
      config.setKind("HeadroomConfig");
      config.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().withName("cluster").build());
      config.setAdditionalProperty("spec", Map.of("dryRun", true));
      f.admin().genericKubernetesResources(ApiServerDouble.HEADROOM_CONFIG).resource(config).create();
      Map<String, Object> status = Map.of("observedGeneration", 1, "managedPods", 3, "managedNodes", 1,
          "conditions", List.of(Map.of("type", "Ready", "status", "True", "observedGeneration", 1,
              "lastTransitionTime", "2026-12-01T12:00:00Z", "reason", "Accepted", "message", "in force")));
      GenericKubernetesResource out = f.admin().genericKubernetesResources(ApiServerDouble.HEADROOM_CONFIG)
          .withName("cluster").subresource("status").patch(MERGE, Serialization.asJson(Map.of("status", status)));
      // not the spec: the real server applies the CRD's defaults to it, the double does not (DESIGN.md)
      return "generation=" + out.getMetadata().getGeneration() + " status=" + Answer.sorted(out.getAdditionalProperties().get("status"));
    }));
  }
}
