package dev.kubeheadroom.actuator;

import static dev.kubeheadroom.actuator.Decisions.change;
import static dev.kubeheadroom.actuator.Decisions.decision;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.policy.PolicyConfig;
import dev.kubeheadroom.schemas.DecisionConfig;
import dev.kubeheadroom.schemas.DecisionStats;
import dev.kubeheadroom.schemas.NodeDecision;
import dev.kubeheadroom.schemas.OutcomeResult;
import dev.kubeheadroom.schemas.PodChange;
import java.util.List;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/** The words users read (docs/design/headroom-design.txt §8.1, runbook "my pod is throttled"). */
class EventAndAnnotationTextTest {

  private static PodWork work(NodeDecision decision) {
    PodChange change = decision.changes().get(0);
    return PodWork.of(1, decision, change, new TopicPartition("d", 0), 0);
  }

  @Test
  void anAppliedChangeReadsAsInTheRunbook() {
    PodWork w = work(decision("n1", false, change("u", "ns", "b", 1500, 3000)));
    assertThat(EventRecorder.content(w, OutcomeResult.APPLIED, "")).hasValue(new EventRecorder.Content(
        "CPULimitAdjusted", "Normal", "1500m → 3000m (node factor 2.00, slack 8/16 cores)"));
  }

  @Test
  void aDryRunSaysWhatItWouldHaveDone() {
    PodWork w = work(decision("n1", true, change("u", "ns", "b", 1500, 3000)));
    assertThat(EventRecorder.content(w, OutcomeResult.DRY_RUN, "")).hasValueSatisfying(c ->
        assertThat(c.note()).isEqualTo("(dry-run) would adjust 1500m → 3000m (node factor 2.00, slack 8/16 cores)"));
  }

  @Test
  void fractionalCoresHaveNoTrailingZeros() {
    NodeDecision d = new NodeDecision("n1", Decisions.AT, 1, "proportional-v1", false,
        DecisionConfig.of(PolicyConfig.DEFAULTS), new DecisionStats(15_500, 7_000, 8_500, 7_000, 2, 5, 2.2142857),
        List.of(), List.of(change("u", "ns", "b", 0, 2210)));
    assertThat(EventRecorder.content(work(d), OutcomeResult.APPLIED, "")).hasValueSatisfying(c ->
        assertThat(c.note()).isEqualTo("none → 2210m (node factor 2.21, slack 8.5/15.5 cores)"));
  }

  @Test
  void quotaDenialIsAWarningAndKubeletOrGoneResultsWriteNoEvent() {
    PodWork w = work(decision("n1", false, change("u", "ns", "b", 1500, 3000)));
    assertThat(EventRecorder.content(w, OutcomeResult.QUOTA_DENIED, "exceeded quota: compute"))
        .hasValueSatisfying(c -> {
          assertThat(c.reason()).isEqualTo("ResizeForbidden");
          assertThat(c.type()).isEqualTo("Warning");
          assertThat(c.note()).contains("exceeded quota: compute");
        });
    // ResizeInfeasible is written by ingest, which sees the kubelet's answer in pod status
    assertThat(EventRecorder.content(w, OutcomeResult.INFEASIBLE, "no")).isEmpty();
    assertThat(EventRecorder.content(w, OutcomeResult.GONE, "x")).isEmpty();
  }

  @Test
  void aRefusalIsAResizeRefusedWarningWithTheServersWords() {
    PodWork w = work(decision("n1", false, change("u", "ns", "b", 1500, 3000)));
    for (OutcomeResult result : List.of(OutcomeResult.ERROR, OutcomeResult.CONFLICT)) {
      assertThat(EventRecorder.content(w, result, "maximum cpu usage per Container is 2"))
          .as(result.wireName()).hasValueSatisfying(c -> {
            assertThat(c.reason()).isEqualTo("ResizeRefused");
            assertThat(c.type()).isEqualTo("Warning");
            assertThat(c.note()).isEqualTo("resize 1500m → 3000m refused: maximum cpu usage per Container"
                + " is 2 (retried after a growing backoff)");
          });
    }
  }

  @Test
  void theStatusAnnotationHasTheDocumentedKeysInOrder() {
    PodWork w = work(decision("n1", false, change("u", "ns", "b", 1500, 3000)));
    assertThat(StatusAnnotator.Status.of(w).toJson()).isEqualTo(
        "{\"factor\":\"2.00\",\"slack\":\"8000m\",\"managedRequests\":\"8000m\",\"nodePods\":14,"
            + "\"targetLimit\":\"3000m\",\"policy\":\"proportional-v1\",\"dryRun\":false,"
            + "\"computedAt\":\"" + Decisions.AT + "\"}");
  }
}
