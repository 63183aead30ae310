package dev.kubeheadroom.actuator;

import static dev.kubeheadroom.actuator.ActuatorHarness.NS;
import static dev.kubeheadroom.actuator.Decisions.change;
import static dev.kubeheadroom.actuator.Decisions.decision;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.kubedouble.Fault;
import dev.kubeheadroom.kubedouble.RequestMatcher;
import dev.kubeheadroom.schemas.OutcomeResult;
import dev.kubeheadroom.schemas.ResizeOutcome;
import dev.kubeheadroom.testkit.WithKafka;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** A pod refused again and again gets one {@code ResizeRefused} Warning per refusal episode. */
@WithKafka
class RefusedEventTest {
  @RegisterExtension final ActuatorHarness h = new ActuatorHarness();

  @Test
  void aPodRefusedTwiceGetsOneWarningAndAnAppliedResizeEndsTheEpisode() {
    Pod pod = h.pod("web-1", "n1", "app=500m/1");
    String uid = pod.getMetadata().getUid();
    var refuse = h.api.faults().always(RequestMatcher.resizeOf(NS, "web-1"),
        Fault.invalid("spec.containers[0].resources.limits: Invalid value: injected"));
    h.start();

    h.produce(decision("n1", false, change(uid, NS, "web-1", 1000, 2000)));
    h.outcomesUntil(os -> os.size() >= 1);
    h.produce(decision("n1", false, change(uid, NS, "web-1", 1000, 3000)));
    List<ResizeOutcome> refused = h.outcomesUntil(os -> os.size() >= 2);
    assertThat(refused).extracting(ResizeOutcome::result)
        .containsExactly(OutcomeResult.ERROR, OutcomeResult.ERROR);
    assertThat(h.events("ResizeRefused")).as("one Warning for the episode").singleElement()
        .satisfies(e -> {
          assertThat(e.getType()).isEqualTo("Warning");
          assertThat(e.getNote()).contains("1000m → 2000m refused").contains("injected");
        });

    refuse.remove();
    h.produce(decision("n1", false, change(uid, NS, "web-1", 1000, 2500)));
    h.outcomesUntil(os -> os.size() >= 3);
    h.api.faults().always(RequestMatcher.resizeOf(NS, "web-1"), Fault.invalid("injected again"));
    h.produce(decision("n1", false, change(uid, NS, "web-1", 2500, 4000)));
    List<ResizeOutcome> all = h.outcomesUntil(os -> os.size() >= 4);
    assertThat(all).extracting(ResizeOutcome::result).containsExactly(OutcomeResult.ERROR,
        OutcomeResult.ERROR, OutcomeResult.APPLIED, OutcomeResult.ERROR);
    assertThat(h.events("ResizeRefused")).as("a new episode after the applied resize").hasSize(2);
  }
}
