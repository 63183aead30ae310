package dev.kubeheadroom.demo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.kubedouble.ApiRequest;
import dev.kubeheadroom.kubedouble.ApiRequest.Verb;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DemoRunTest {

  @Test
  void apiWritesCountResizesAnnotationsAndEventsButNotTheLeaseOrReads() {
    // events are POSTs, which the journal names CREATE (as Kubernetes does), not "POST"
    assertThat(DemoRun.isWrite(request(Verb.CREATE, "events.k8s.io", "events", ""))).isTrue();
    assertThat(DemoRun.isWrite(request(Verb.PATCH, "", "pods", "resize"))).isTrue();
    assertThat(DemoRun.isWrite(request(Verb.PATCH, "", "pods", ""))).isTrue();
    assertThat(DemoRun.isWrite(request(Verb.UPDATE, "", "pods", ""))).isTrue();
    // the ingest Lease renews every few seconds whatever the cluster does
    assertThat(DemoRun.isWrite(request(Verb.UPDATE, "coordination.k8s.io", "leases", ""))).isFalse();
    assertThat(DemoRun.isWrite(request(Verb.CREATE, "coordination.k8s.io", "leases", ""))).isFalse();
    assertThat(DemoRun.isWrite(request(Verb.GET, "", "pods", ""))).isFalse();
    assertThat(DemoRun.isWrite(request(Verb.WATCH, "", "pods", ""))).isFalse();
  }

  private static ApiRequest request(Verb verb, String group, String resource, String subresource) {
    return new ApiRequest(verb, "/", group, "v1", "ns", resource, "x", subresource, Map.of(), "", "");
  }
}
