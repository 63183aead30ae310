package dev.kubeheadroom.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.kubeheadroom.kubedouble.RequestMatcher;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/design/headroom-design.txt §10's "zero patches at steady state", counted where it matters: at the API server.
 * Takes a minute by nature, so it runs alongside the other concurrent test classes.
 */
class QuietMinuteTest {
  private static final String NS = "team-q";

  @Test
  void zeroPatchesReachTheApiServerOverAQuietMinute(@TempDir Path dir) {
    try (LivePipeline p = LivePipeline.start(dir)) {
      // given a converged cluster: two nodes, six managed pods, every resize annotated
      p.managedNamespace(NS);
      p.node("q1", "16");
      p.node("q2", "8");
      p.pod(NS, "q1-a", "q1", "2");
      p.pod(NS, "q1-b", "q1", "2");
      p.pod(NS, "q1-c", "q1", "4", "6");
      p.pod(NS, "q2-a", "q2", "1");
      p.pod(NS, "q2-b", "q2", "3", "3500m");
      p.pod(NS, "q2-c", "q2", "500m");
      // (docs/design/policy.md: q1 shares 8 of 16 cores pro rata; q2's 3.5 spare cores give each of its three
      // pods at least the 1-core burst floor, so q2-a and q2-c get 1 core more, q2-b 2.33 more)
      p.awaitLimits(Map.of(NS + "/q1-a", 4_000L, NS + "/q1-b", 4_000L, NS + "/q1-c", 8_000L,
          NS + "/q2-a", 2_000L, NS + "/q2-b", 5_330L, NS + "/q2-c", 1_500L));
      await("every resize annotated").atMost(LivePipeline.CONVERGE).until(() ->
          p.api.requests().count(RequestMatcher.podPatch(), 200) >= p.api.requests().count(RequestMatcher.resize(), 200));

      // when a minute passes with no change in the cluster
      Instant quietFrom = Instant.now();

      // then not one PATCH (pods or pods/resize) reaches the API server
      await("a quiet minute").during(Duration.ofSeconds(60)).atMost(Duration.ofSeconds(70))
          .until(() -> p.podPatchesSince(quietFrom) == 0);
      assertThat(p.podPatchesSince(quietFrom)).isZero();
    }
  }
}
