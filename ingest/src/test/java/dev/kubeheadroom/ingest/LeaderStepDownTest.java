package dev.kubeheadroom.ingest;

import static dev.kubeheadroom.ingest.IngestHarness.hasSnapshotOf;
import static dev.kubeheadroom.ingest.TestObjects.pod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.kubeheadroom.kubedouble.Fault;
import dev.kubeheadroom.kubedouble.RequestMatcher;
import dev.kubeheadroom.testkit.KafkaBroker;
import dev.kubeheadroom.testkit.WithKafka;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.time.Duration;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A leader whose renewals cannot reach the API server steps down within its renew deadline, before
 * the Lease expires for a standby (docs/reliability.md, finding 5): however its client retries,
 * and whether the server answers errors or not at all.
 */
@WithKafka
class LeaderStepDownTest {
  private IngestHarness harness;
  private KubernetesClient retrying;

  @BeforeEach
  void start(KafkaBroker kafka) {
    harness = new IngestHarness(kafka);
    // fabric8's own retries on, as in production (10 tries, backoff from 100 ms, capped at 3.2 s)
    retrying = new KubernetesClientBuilder().withConfig(new ConfigBuilder(harness.api.config())
        .withRequestRetryBackoffLimit(Config.DEFAULT_REQUEST_RETRY_BACKOFFLIMIT)
        .withRequestRetryBackoffInterval(Config.DEFAULT_REQUEST_RETRY_BACKOFFINTERVAL).build()).build();
  }

  @AfterEach
  void stop() {
    harness.close();
    retrying.close();
  }

  static Stream<Fault> outages() {
    // answered 503 at once; or processed but answered only after the Lease has expired
    return Stream.of(new Fault.Respond(503, "ServiceUnavailable", "down (injected)"),
        Fault.delay(Duration.ofSeconds(8)));
  }

  @ParameterizedTest
  @MethodSource("outages")
  void aLeaderThatCannotRenewStepsDownWithinTheRenewDeadlineAndLeadsAgainAfter(Fault outage) {
    Ingest ingest = harness.start("ingest-1", UnaryOperator.identity(), retrying);
    await().atMost(IngestHarness.TIMEOUT).until(ingest::leading);
    IngestSettings.LeaseSettings lease = harness.settings("ingest-1").lease();

    // when: every request meets the outage
    var down = harness.api.faults().always(RequestMatcher.any(), outage);
    long from = System.nanoTime();
    await().atMost(IngestHarness.TIMEOUT).pollInterval(Duration.ofMillis(10)).until(() -> !ingest.leading());
    Duration tookToStepDown = Duration.ofNanos(System.nanoTime() - from);

    // then: it stopped leading at its renew deadline (counted from its last renewal, at most one
    // retry period before the outage), before the Lease expires for a standby: the bound that
    // matters; the scheduling of a loaded machine is the margin between the two
    assertThat(tookToStepDown).isLessThan(lease.leaseDuration());
    assertThat(ingest.terminated()).isNotDone();

    // and once the server is back, it leads again and publishes
    down.remove();
    await().atMost(IngestHarness.TIMEOUT).until(ingest::leading);
    harness.seed(pod("team-a", "after-outage", "node-1", "100m", "1"));
    harness.podsUntil(hasSnapshotOf("after-outage"));
  }
}
