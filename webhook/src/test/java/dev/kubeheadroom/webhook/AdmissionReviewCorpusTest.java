package dev.kubeheadroom.webhook;

import dev.kubeheadroom.testkit.fuzz.FuzzCorpus;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Every review of the fuzzer's corpus (its seeds and every finding) holds the property as it is. */
class AdmissionReviewCorpusTest {

  @Test
  void everyReviewOfTheCorpusHolds() {
    for (Path review : FuzzCorpus.files(AdmissionReviewCorpusTest.class, "admission-review")) {
      byte[] body = FuzzCorpus.bytes(review);
      AdmissionHandler.Answer answer =
          AdmissionAnswers.handler(Fixtures.TEAM_A, Fixtures.enforcing(), AdmissionAnswers.metrics()).answer(body);
      AdmissionAnswers.holds(body, answer, review.getFileName().toString());
    }
  }
}
