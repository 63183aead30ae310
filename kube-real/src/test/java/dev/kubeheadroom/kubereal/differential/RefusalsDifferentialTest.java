package dev.kubeheadroom.kubereal.differential;

import static dev.kubeheadroom.kubereal.differential.Both.resize;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.kubeheadroom.kubereal.RealControlPlane;
import dev.kubeheadroom.kubereal.WithRealKubernetes;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaderElectionRecord;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Each refusal the product handles, sent to the double and to the real kube-apiserver: the same
 * status code, reason, message and details (the product reads the code, the message's
 * "exceeded quota" and shows the message in outcomes and events).
 */
@WithRealKubernetes
class RefusalsDifferentialTest {
  private static Both both;

  @BeforeAll
  static void start(RealControlPlane api) {
    both = new Both(api);
  }

  @AfterAll
  static void stop() {
    both.close();
  }

  @Test
  void aTokenTheServerNeverIssuedIs401() {
    Answer answer = both.same(f -> Answer.of(() -> f.stranger().pods().inNamespace("default").list().toString()));
    assertThat(answer.code()).isEqualTo(401);
  }

  @Test
  void aListRbacDoesNotGrantIs403() {
    String ns = both.ns("diff-rbac-list");
    both.given(f -> Given.namespace(f, ns));
    Answer answer = both.same(f -> Answer.of(() ->
        f.as(ns, "nobody").pods().inNamespace(ns).list().toString()));
    assertThat(answer.code()).isEqualTo(403);
  }

  @Test
  void aResizeWithoutTheSubresourceGrantIs403() {
    String ns = both.ns("diff-rbac-resize");
    both.given(f -> {
      Given.namespace(f, ns);
      Given.pod(f, ns, "web", "500m", "1");
      Given.grant(f, ns, "actuator", List.of("get", "patch"), List.of("pods"));
    });
    Answer answer = both.same(f -> resize(f.as(ns, "actuator"), ns, "web", "2"));
    assertThat(answer.code()).isEqualTo(403);
  }

  @Test
  void aResizeAboveTheLimitRangesMaxIs403() {
    String ns = both.ns("diff-limitrange");
    both.given(f -> {
      Given.namespace(f, ns);
      Given.containerMaxCpu(f, ns, "2");
      Given.pod(f, ns, "web", "500m", "1");
    });
    Answer answer = both.same(f -> resize(f.admin(), ns, "web", "3"));
    assertThat(answer.code()).isEqualTo(403);
    assertThat(answer.message()).contains("maximum cpu usage per Container is 2, but limit is 3");
  }

  @Test
  void aResizeBeyondTheQuotaIs403ExceededQuota() {
    String ns = both.ns("diff-quota");
    both.given(f -> {
      Given.namespace(f, ns);
      Given.quotaOnCpuLimits(f, ns, "2");
      Given.pod(f, ns, "web", "500m", "1");
    });
    Answer answer = both.same(f -> resize(f.admin(), ns, "web", "3"));
    assertThat(answer.code()).isEqualTo(403);
    assertThat(answer.message()).contains("exceeded quota: compute");
  }

  @Test
  void aResizeOfAPodWhoseRequestsExceedItsNodesAllocatableIs403NodeCapacity() {
    assumeTrue(both.realMinor() >= 37,
        "the server's NodeCapacity check is seen on v1.37.2, not on v1.34.4: the double applies v1.37's");
    String ns = both.ns("diff-node-capacity");
    both.given(f -> {
      Given.namespace(f, ns);
      Given.node(f, "n-small", "1");
      Given.pod(f, ns, "big", "2", "3", "n-small");
    });
    Answer answer = both.same(f -> resize(f.admin(), ns, "big", "4"));
    assertThat(answer.code()).isEqualTo(403);
    assertThat(answer.details()).contains("NodeCapacity");
  }

  @Test
  void aResizeOfAPodThatIsNotThereIs404() {
    String ns = both.ns("diff-gone");
    both.given(f -> Given.namespace(f, ns));
    Answer answer = both.same(f -> resize(f.admin(), ns, "ghost", "2"));
    assertThat(answer.code()).isEqualTo(404);
  }

  @Test
  void aResizeBelowTheRequestIs422() {
    String ns = both.ns("diff-invalid");
    both.given(f -> {
      Given.namespace(f, ns);
      Given.pod(f, ns, "web", "500m", "1");
    });
    Answer answer = both.same(f -> resize(f.admin(), ns, "web", "250m"));
    assertThat(answer.code()).isEqualTo(422);
  }

  @Test
  void aResizeThatWouldChangeTheQosClassIs422() {
    String ns = both.ns("diff-qos");
    both.given(f -> {
      Given.namespace(f, ns);
      Given.pod(f, ns, "web", "1", "1");
    });
    Answer answer = both.same(f -> resize(f.admin(), ns, "web", "2"));
    assertThat(answer.code()).isEqualTo(422);
  }

  @Test
  void aLeaseWrittenFromAStaleCopyIs409() {
    String ns = both.ns("diff-lease-conflict");
    ZonedDateTime at = ZonedDateTime.of(2026, 12, 1, 12, 0, 0, 0, ZoneOffset.UTC);
    both.given(f -> Given.namespace(f, ns));
    Answer answer = both.same(f -> Answer.of(() -> {
      LeaseLock first = new LeaseLock(ns, "ingest", "ingest-0");
      LeaseLock second = new LeaseLock(ns, "ingest", "ingest-1");
      first.create(f.admin(), new LeaderElectionRecord("ingest-0", Duration.ofSeconds(15), at, at, 0));
      first.get(f.admin());
      second.get(f.admin());
      second.update(f.admin(), new LeaderElectionRecord("ingest-1", Duration.ofSeconds(15), at, at.plusSeconds(20), 1));
      first.update(f.admin(), new LeaderElectionRecord("ingest-0", Duration.ofSeconds(15), at, at.plusSeconds(2), 0));
      return "written";
    }));
    assertThat(answer.code()).isEqualTo(409);
  }

  @Test
  void creatingALeaseThatExistsIs409() {
    String ns = both.ns("diff-lease-exists");
    both.given(f -> {
      Given.namespace(f, ns);
      f.admin().leases().inNamespace(ns).resource(new LeaseBuilder().withNewMetadata().withName("ingest")
          .withNamespace(ns).endMetadata().withNewSpec().withHolderIdentity("ingest-0").endSpec().build()).create();
    });
    ZonedDateTime at = ZonedDateTime.of(2026, 12, 1, 12, 0, 0, 0, ZoneOffset.UTC);
    Answer answer = both.same(f -> Answer.of(() -> {
      new LeaseLock(ns, "ingest", "ingest-1")
          .create(f.admin(), new LeaderElectionRecord("ingest-1", Duration.ofSeconds(15), at, at, 0));
      return "created";
    }));
    assertThat(answer.code()).isEqualTo(409);
  }
}
