package dev.kubeheadroom.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.testkit.fuzz.FuzzCorpus;
import dev.kubeheadroom.testkit.fuzz.HostileDocuments;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

/**
 * The admission review reader's fuzzer: generated pod CREATE reviews ({@link AdmissionReviews})
 * and the corpus's reviews (the handler's fixtures under {@code src/test/resources/admission}, and
 * {@code src/test/resources/fuzz/admission-review}, findings included) with one to four mutations
 * ({@link HostileDocuments}), each through {@link AdmissionHandler#handle} and held to {@link
 * AdmissionAnswers#holds}. {@code mvn verify} runs a short pass (jqwik.tries.default in
 * src/test/resources/junit-platform.properties); {@code -Pfuzz-long} a long one
 * (docs/reliability.md). A failure is shrunk by jqwik; keep it as a finding in the corpus.
 */
class AdmissionReviewFuzzProperties {

  /** A review the API server could send is decided, never an error, and never patched below a request. */
  @Property
  void aGeneratedReviewIsDecidedWithoutALimitBelowARequest(@ForAll("reviews") AdmissionReviews.Case c) {
    WebhookMetrics metrics = AdmissionAnswers.metrics();
    AdmissionHandler.Answer answer = AdmissionAnswers.handler(c.namespace(), c.config(), metrics).answer(c.body());
    boolean patched = AdmissionAnswers.holds(c.body(), answer, "generated review") != null;
    Statistics.label("answer").collect(patched ? "patched" : Arrays.stream(AllowReason.values())
        .filter(r -> metrics.unchangedCount(r) > 0).findFirst().map(AllowReason::wireName).orElse("?"));
    assertThat(metrics.unchangedCount(AllowReason.ERROR)).as("admitted after an error").isZero();
  }

  /** Any body at all is answered well-formed, allowed, its uid echoed, never patched below a request. */
  @Property
  void aMutatedReviewIsAnsweredWellFormed(@ForAll("mutatedReviews") byte[] body) {
    AdmissionHandler.Answer answer =
        AdmissionAnswers.handler(Fixtures.TEAM_A, Fixtures.enforcing(), AdmissionAnswers.metrics()).answer(body);
    AdmissionAnswers.holds(body, answer, "mutated review");
  }

  @Provide
  Arbitrary<AdmissionReviews.Case> reviews() {
    return AdmissionReviews.cases();
  }

  @Provide
  Arbitrary<byte[]> mutatedReviews() {
    return HostileDocuments.mutated(seeds());
  }

  /** The handler's fixtures and the fuzzer's own corpus. */
  static List<byte[]> seeds() {
    List<byte[]> seeds = new ArrayList<>(FuzzCorpus.contents(AdmissionReviewFuzzProperties.class, "admission-review"));
    FuzzCorpus.under(AdmissionReviewFuzzProperties.class, "/admission").forEach(p -> seeds.add(FuzzCorpus.bytes(p)));
    return seeds;
  }
}
