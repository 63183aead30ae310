package dev.kubeheadroom.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

/**
 * Which HTTP client fabric8 finds on the operator's classpath. It takes the highest-priority
 * {@code HttpClient.Factory} it can load, and the Vert.x 4 one outranks the JDK's: if a dependency
 * brought {@code kubernetes-httpclient-vertx} back, every watch would again register its WebSocket
 * handlers only after the handshake's future completed, and a watch opened by a descheduled thread
 * would lose the changes replayed at its start (the events between an informer's LIST and its
 * WATCH) without any error. The root pom excludes it for that reason.
 */
class KubernetesHttpClientTest {
  @Test
  void theOnlyHttpClientFabric8CanLoadIsTheJdkOne() {
    assertThat(ServiceLoader.load(HttpClient.Factory.class).stream().map(ServiceLoader.Provider::type))
        .containsExactly(JdkHttpClientFactory.class);
  }
}
