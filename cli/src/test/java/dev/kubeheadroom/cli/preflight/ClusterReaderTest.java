package dev.kubeheadroom.cli.preflight;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.KubernetesClientException;
import java.net.ConnectException;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

/** Which client failures mean "the API server is unavailable" (exit 4) rather than a failed check. */
class ClusterReaderTest {
  @Test
  void aRefusedConnectionAndATimedOutRequestAreUnreachableAnAnsweredErrorIsNot() {
    assertThat(ClusterReader.unreachable(new KubernetesClientException("x", new ConnectException("refused")))).isTrue();
    // fabric8 wraps its requestTimeout as a TimeoutException: the server never answered
    assertThat(ClusterReader.unreachable(new KubernetesClientException("x", new TimeoutException()))).isTrue();
    assertThat(ClusterReader.unreachable(new KubernetesClientException("Forbidden", 403, null))).isFalse();
  }

  @Test
  void aRefusedConnectionReadsAsOneWhicheverHttpClientReportedIt() {
    // the JDK client: a ConnectException without a message over the channel it closed
    Throwable jdk = new ConnectException().initCause(new java.nio.channels.ClosedChannelException());
    assertThat(ClusterReader.describe(new KubernetesClientException("x", jdk))).isEqualTo("Connection refused");
    assertThat(ClusterReader.describe(new KubernetesClientException("x", new ConnectException("Connection refused"))))
        .isEqualTo("Connection refused");
  }
}
