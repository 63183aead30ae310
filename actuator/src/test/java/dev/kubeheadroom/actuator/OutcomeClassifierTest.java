package dev.kubeheadroom.actuator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.actuator.OutcomeClassifier.Verdict;
import dev.kubeheadroom.schemas.OutcomeResult;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.net.SocketTimeoutException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class OutcomeClassifierTest {

  @ParameterizedTest(name = "{0} → {1}")
  @CsvSource({
      "200, applied",
      "201, applied",
      "403, quota-denied",
      "404, gone",
      "409, conflict",
      "422, error",
      "400, error",
      "415, error"})
  void finalAnswersMapToTheirOutcome(int code, String wireName) {
    String message = code == 403 ? "pods \"web\" is forbidden: exceeded quota: compute" : "x";
    assertThat(OutcomeClassifier.classify(code, message))
        .isEqualTo(new Verdict.Final(OutcomeResult.fromWireName(wireName),
            code == 403 || code == 404 || code == 409 || code < 300 ? message : code + ": " + message));
  }

  @ParameterizedTest(name = "{0} is transient")
  @CsvSource({"429", "500", "502", "503", "504", "0"})
  void overloadServerErrorsAndNoAnswerAreTransient(int code) {
    assertThat(OutcomeClassifier.classify(code, "busy")).isInstanceOf(Verdict.Transient.class);
  }

  @Test
  void aForbiddenThatIsNotAQuotaIsAnErrorNotQuotaDenied() {
    Verdict verdict = OutcomeClassifier.classify(403,
        "pods \"web\" is forbidden: User \"system:serviceaccount:x:y\" cannot patch resource \"pods/resize\"");
    assertThat(verdict).isInstanceOfSatisfying(Verdict.Final.class,
        f -> assertThat(f.result()).isEqualTo(OutcomeResult.ERROR));
  }

  @Test
  void aClientExceptionCarriesTheServersMessage() {
    KubernetesClientException e = new KubernetesClientException(new StatusBuilder().withCode(422)
        .withMessage("Pod \"web\" is invalid: spec.containers[0].resources.limits: Invalid value").build());
    assertThat(OutcomeClassifier.classify(e)).isEqualTo(new Verdict.Final(OutcomeResult.ERROR,
        "422: Pod \"web\" is invalid: spec.containers[0].resources.limits: Invalid value"));
  }

  @Test
  void aTimeoutWithoutAnAnswerIsTransient() {
    KubernetesClientException e = new KubernetesClientException("request failed",
        new SocketTimeoutException("timeout"));
    assertThat(OutcomeClassifier.classify(e)).isInstanceOfSatisfying(Verdict.Transient.class,
        t -> assertThat(t.message()).contains("timeout"));
  }
}
