package dev.kubeheadroom.demo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.kubedouble.ApiServerDouble;
import dev.kubeheadroom.kubedouble.KubeletDouble;
import dev.kubeheadroom.projection.WatchEvent;
import dev.kubeheadroom.scenarios.ScenarioEvent;
import dev.kubeheadroom.scenarios.SyntheticScenario;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The scenario player writes a generated scenario into the API double as its state. */
class ScenarioPlayerTest {
  @Test
  void everyEventOfAGeneratedScenarioIsAcceptedAndTheKubeletComesToRest() throws Exception {
    List<WatchEvent> events = new ArrayList<>();
    long line = 0;
    Instant start = Instant.parse("2026-03-01T12:00:00Z");
    for (ScenarioEvent e : SyntheticScenario.generate(new SyntheticScenario.Options(3, 16_000, 20, 0.025, 30,
        0.15, 0.75, 7, true, start)).before(start.plusSeconds(24)).events()) {
      events.add(new WatchEvent(++line, WatchEvent.Type.valueOf(e.type().name()), e.at(), e.object()));
    }
    try (ApiServerDouble api = ApiServerDouble.start(); KubeletDouble kubelet = KubeletDouble.start(api)) {
      ScenarioPlayer player = new ScenarioPlayer(api.seedClient(), Clock.systemUTC(), 1_000);
      player.play(events);
      assertThat(player.failed()).as(String.valueOf(player.firstFailure())).isZero();
      long deleted = events.stream().filter(e -> e.type() == WatchEvent.Type.DELETED).count();
      long pods = events.stream().filter(e -> e.type() == WatchEvent.Type.ADDED
          && e.object().getKind().equals("Pod")).count();
      assertThat(api.pods()).hasSize((int) (pods - deleted));
      // and the simulated kubelet comes to rest (it once rewrote running pods forever)
      long settled = org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(10))
          .pollInterval(java.time.Duration.ofMillis(500))
          .until(kubelet::statusWrites, new org.hamcrest.BaseMatcher<Long>() {
            private long last = -1;

            @Override
            public boolean matches(Object actual) {
              boolean same = ((Long) actual) == last;
              last = (Long) actual;
              return same;
            }

            @Override
            public void describeTo(org.hamcrest.Description description) {
              description.appendText("no new status writes for 500 ms");
            }
          });
      assertThat(settled).isLessThan(200);
    }
  }
}
