package dev.kubeheadroom.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kubeheadroom.policy.ContainerTarget;
import dev.kubeheadroom.policy.NodeStats;
import dev.kubeheadroom.policy.PodInput;
import dev.kubeheadroom.policy.PolicyConfig;
import dev.kubeheadroom.schemas.ContainerChange;
import dev.kubeheadroom.schemas.DecisionConfig;
import dev.kubeheadroom.schemas.DecisionInput;
import dev.kubeheadroom.schemas.DecisionStats;
import dev.kubeheadroom.schemas.JsonCodec;
import dev.kubeheadroom.schemas.NodeDecision;
import dev.kubeheadroom.schemas.PodChange;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Decisions over a record's budget are split into parts that fit and join back (DESIGN.md). */
class DecisionPartsTest {
  static NodeDecision decision(int pods) {
    List<PodInput> inputs = new ArrayList<>();
    List<PodChange> changes = new ArrayList<>();
    for (int i = 0; i < pods; i++) {
      String uid = String.format("0b6c1f0e-%04d-4c5e-9d2a-%012d", i % 10_000, i);
      inputs.add(new PodInput(uid, 100, 0, true, 0));
      changes.add(new PodChange(uid, "team-a", "web-" + i, "grow", 0, 250,
          List.of(ContainerChange.of(new ContainerTarget("app", 0, 250)))));
    }
    return new NodeDecision("n1", Instant.parse("2026-03-01T12:00:00Z"), 1, "proportional-v1", false,
        DecisionConfig.of(PolicyConfig.DEFAULTS), DecisionStats.of(new NodeStats(64_000, 1, 1, 1, pods, pods, 2.0)),
        DecisionInput.of(inputs), changes);
  }

  @Test
  void aDecisionThatFitsIsSentWholeAndSerializesWithoutAPart() {
    NodeDecision small = decision(3);
    assertThat(DecisionParts.split(small, DecisionParts.DEFAULT_MAX_BYTES)).containsExactly(small);
    assertThat(new String(JsonCodec.encode(small), java.nio.charset.StandardCharsets.UTF_8)).doesNotContain("\"part\"");
  }

  @Test
  void aNodeOfTwentyThousandPodsIsSentInPartsThatEachFitAndJoinToTheDecision() {
    // given a node of 20,000 pods whose limits all change: ~6 MB of JSON
    NodeDecision huge = decision(20_000);
    assertThat(JsonCodec.encode(huge).length).isGreaterThan(5 * DecisionParts.DEFAULT_MAX_BYTES);

    // when split at the default budget
    List<NodeDecision> parts = DecisionParts.split(huge, DecisionParts.DEFAULT_MAX_BYTES);

    // then every part fits, they are numbered 1..n (16: the smallest power of two that fits),
    // and they join back to the decision
    assertThat(parts).hasSize(16).allSatisfy(p ->
        assertThat(JsonCodec.encode(p).length).isLessThanOrEqualTo(DecisionParts.DEFAULT_MAX_BYTES));
    for (int i = 0; i < parts.size(); i++) {
      assertThat(parts.get(i).part()).isEqualTo(new NodeDecision.Part(i + 1, parts.size()));
      assertThat(parts.get(i).stats()).isEqualTo(huge.stats());
    }
    assertThat(NodeDecision.join(parts)).isEqualTo(huge);
    assertThat(parts.get(parts.size() - 1).complete()).isTrue();
    assertThat(parts.get(0).complete()).isFalse();
  }

  @Test
  void splittingIsAPureFunctionOfTheDecision() {
    NodeDecision d = decision(3_000);
    assertThat(DecisionParts.split(d, 64 * 1024)).isEqualTo(DecisionParts.split(d, 64 * 1024));
  }

  @Test
  void aDecisionNoSplitCanFitIsRefusedWithTheNodeNamed() {
    // given a budget that holds the header of a part but not one pod's input and change
    NodeDecision d = decision(2);
    int header = JsonCodec.encode(d.slice(List.of(), List.of(), new NodeDecision.Part(1, 2))).length;
    assertThatThrownBy(() -> DecisionParts.split(d, header + 20))
        .isInstanceOf(DecisionParts.TooLarge.class).hasMessageContaining("node n1");
  }

  @Test
  void joiningPartsOfDifferentDecisionsOrAMissingPartIsRefused() {
    List<NodeDecision> parts = DecisionParts.split(decision(3_000), 64 * 1024);
    assertThatThrownBy(() -> NodeDecision.join(parts.subList(0, parts.size() - 1)))
        .isInstanceOf(IllegalArgumentException.class);
    List<NodeDecision> mixed = new ArrayList<>(parts);
    mixed.set(0, DecisionParts.split(decision(2_999), 64 * 1024).get(0));
    assertThatThrownBy(() -> NodeDecision.join(mixed)).isInstanceOf(IllegalArgumentException.class);
  }
}
