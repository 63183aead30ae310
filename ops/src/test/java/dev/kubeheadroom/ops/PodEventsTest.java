package dev.kubeheadroom.ops;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.kubedouble.ApiRequest.Verb;
import dev.kubeheadroom.kubedouble.ApiServerDouble;
import dev.kubeheadroom.kubedouble.Fault;
import dev.kubeheadroom.kubedouble.RequestMatcher;
import dev.kubeheadroom.ops.PodEvents.PodEvent;
import io.fabric8.kubernetes.api.model.events.v1.Event;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The Event object both stages write, as the API server stores it (the API double: a CRUD store
 * of {@code events.k8s.io/v1} Events that answers injected faults like the real server would).
 */
class PodEventsTest {
  private static final Instant AT = Instant.parse("2026-11-29T10:15:30.123456789Z");

  private ApiServerDouble api;
  private PodEvents events;

  @BeforeEach
  void start() {
    api = ApiServerDouble.start();
    events = new PodEvents(api.client(), Clock.fixed(AT, ZoneOffset.UTC), "kube-headroom.dev/test", "pod-7");
  }

  @AfterEach
  void stop() {
    api.close();
  }

  @Test
  void writesOneEventRegardingThePodByUidWithTheReportingIdentity() {
    boolean stored = events.write(new PodEvent("team-a", "web-1", "uid-1", "Normal", "CPULimitAdjusted",
        "Resize", "limit 1500m -> 2000m"));

    assertThat(stored).isTrue();
    List<Event> written = stored("team-a");
    assertThat(written).singleElement().satisfies(e -> {
      assertThat(e.getMetadata().getName()).startsWith("web-1.");
      assertThat(e.getRegarding().getKind()).isEqualTo("Pod");
      assertThat(e.getRegarding().getApiVersion()).isEqualTo("v1");
      assertThat(e.getRegarding().getNamespace()).isEqualTo("team-a");
      assertThat(e.getRegarding().getName()).isEqualTo("web-1");
      assertThat(e.getRegarding().getUid()).isEqualTo("uid-1");
      assertThat(e.getType()).isEqualTo("Normal");
      assertThat(e.getReason()).isEqualTo("CPULimitAdjusted");
      assertThat(e.getAction()).isEqualTo("Resize");
      assertThat(e.getNote()).isEqualTo("limit 1500m -> 2000m");
      assertThat(e.getReportingController()).isEqualTo("kube-headroom.dev/test");
      assertThat(e.getReportingInstance()).isEqualTo("pod-7");
      // MicroTime: microseconds, UTC, from the clock given
      assertThat(e.getEventTime().getTime()).isEqualTo("2026-11-29T10:15:30.123456Z");
    });
  }

  @Test
  void eachWriteIsItsOwnEventNeverANameCollision() {
    PodEvent e = new PodEvent("team-a", "web-1", "uid-1", "Warning", "ResizeInfeasible", "Resize", "x");
    for (int i = 0; i < 5; i++) {
      assertThat(events.write(e)).isTrue();
    }
    assertThat(stored("team-a")).hasSize(5)
        .extracting(ev -> ev.getMetadata().getName()).doesNotHaveDuplicates();
  }

  @Test
  void aNoteOverTheServersLimitIsCutNotRefused() {
    String longNote = "n".repeat(PodEvents.MAX_NOTE + 500);
    assertThat(events.write(new PodEvent("team-a", "web-1", "uid-1", "Warning", "ResizeForbidden",
        "Resize", longNote))).isTrue();
    assertThat(stored("team-a")).singleElement()
        .satisfies(e -> assertThat(e.getNote()).hasSize(PodEvents.MAX_NOTE));
  }

  @Test
  void aRefusedWriteIsReportedNotThrown() {
    api.faults().next(1, RequestMatcher.of(Verb.CREATE, "events"), Fault.internalError());
    PodEvent e = new PodEvent("team-a", "web-1", "uid-1", "Normal", "CPULimitAdjusted", "Resize", null);

    assertThat(events.write(e)).isFalse();
    assertThat(stored("team-a")).isEmpty();
    assertThat(events.write(e)).isTrue(); // the next one goes through: no state kept
    assertThat(stored("team-a")).singleElement().satisfies(ev -> assertThat(ev.getNote()).isEmpty());
  }

  private List<Event> stored(String namespace) {
    return api.seedClient().events().v1().events().inNamespace(namespace).list().getItems();
  }
}
