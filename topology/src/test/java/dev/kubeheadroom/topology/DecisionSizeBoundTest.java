package dev.kubeheadroom.topology;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.schemas.CeilingRatio;
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
import java.util.Random;
import org.junit.jupiter.api.Test;

/** {@link DecisionSizeBound} never undercounts, so the split it short-cuts stays exact. */
class DecisionSizeBoundTest {
  private static final long[] LONGS = {0, 1, 999, Long.MAX_VALUE};
  private static final double[] DOUBLES = {0, 1.0, 1e-300 / 7, -Double.MAX_VALUE / 3, Math.PI * 1e200};
  private static final String[] CHARS = {"a", "é", "\u0001", "\"", "\\", "\u2028", "😀", "\ud800"};

  @Test
  void theBoundIsAtLeastTheSerializedSizeOnExtremeDecisions() {
    Random random = new Random(14);
    for (int round = 0; round < 300; round++) {
      NodeDecision d = decision(random);
      assertThat(DecisionSizeBound.of(d)).as("round %d", round)
          .isGreaterThanOrEqualTo(JsonCodec.encode(d).length);
    }
  }

  @Test
  void splitAgreesWithTheSerializedSizeAroundTheBudget() {
    // A budget just under and just over a decision's real size: the bound must not let the
    // first through whole, and the second is split or not exactly as its bytes say.
    Random random = new Random(7);
    for (int round = 0; round < 50; round++) {
      NodeDecision d = decision(random);
      int size = JsonCodec.encode(d).length;
      if (Math.max(d.inputs().size(), d.changes().size()) >= 2) {
        assertThat(DecisionParts.split(d, size - 1)).hasSizeGreaterThan(1);
      }
      assertThat(DecisionParts.split(d, size)).containsExactly(d);
    }
  }

  @Test
  void everyRecordComponentIsCounted() {
    // A new component must be added to DecisionSizeBound's allowances (and these counts).
    assertThat(NodeDecision.class.getRecordComponents()).hasSize(11);
    assertThat(NodeDecision.Part.class.getRecordComponents()).hasSize(2);
    assertThat(DecisionConfig.class.getRecordComponents()).hasSize(5);
    assertThat(DecisionStats.class.getRecordComponents()).hasSize(7);
    assertThat(DecisionInput.class.getRecordComponents()).hasSize(9);
    assertThat(CeilingRatio.class.getRecordComponents()).hasSize(2);
    assertThat(PodChange.class.getRecordComponents()).hasSize(7);
    assertThat(ContainerChange.class.getRecordComponents()).hasSize(3);
  }

  private static NodeDecision decision(Random r) {
    int pods = r.nextInt(6);
    List<DecisionInput> inputs = new ArrayList<>();
    List<PodChange> changes = new ArrayList<>();
    for (int i = 0; i < pods; i++) {
      DecisionInput in = r.nextBoolean()
          ? new DecisionInput(text(r), pick(r), pick(r), r.nextBoolean(), pick(r))
          : new DecisionInput(text(r), pick(r), pick(r), r.nextBoolean(), pick(r), text(r), 1e-300 / 3);
      inputs.add(r.nextBoolean() ? in : in.inGang(text(r), new CeilingRatio(Long.MAX_VALUE - r.nextInt(2), 1 + r.nextInt(1000))));
      List<ContainerChange> containers = new ArrayList<>();
      for (int c = r.nextInt(4); c > 0; c--) {
        containers.add(new ContainerChange(text(r), pick(r), pick(r)));
      }
      changes.add(new PodChange(text(r) + "u", text(r) + "n", text(r) + "p", text(r), pick(r), pick(r), containers));
    }
    NodeDecision d = new NodeDecision(text(r) + "n", r.nextBoolean() ? Instant.MAX : Instant.ofEpochSecond(-r.nextLong(1L << 40), 999_999_999),
        pick(r), text(r) + "p", r.nextBoolean(),
        new DecisionConfig(pick(r), dbl(r), Math.abs(dbl(r)), Math.abs(dbl(r)), pick(r)),
        new DecisionStats(pick(r), -pick(r), pick(r), pick(r), Integer.MIN_VALUE, Integer.MAX_VALUE, dbl(r)),
        inputs, changes);
    d = r.nextBoolean() ? d : d.inPool(text(r));
    return r.nextBoolean() ? d : d.slice(inputs, changes, new NodeDecision.Part(Integer.MAX_VALUE - 1, Integer.MAX_VALUE));
  }

  private static long pick(Random r) {
    return LONGS[r.nextInt(LONGS.length)];
  }

  private static double dbl(Random r) {
    return DOUBLES[r.nextInt(DOUBLES.length)];
  }

  private static String text(Random r) {
    StringBuilder s = new StringBuilder();
    for (int n = r.nextInt(12); n > 0; n--) {
      s.append(CHARS[r.nextInt(CHARS.length)]);
    }
    return s.toString();
  }
}
