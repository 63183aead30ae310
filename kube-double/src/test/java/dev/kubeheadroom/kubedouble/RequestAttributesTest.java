package dev.kubeheadroom.kubedouble;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The authorization attributes of a request, as
 * staging/src/k8s.io/apiserver/pkg/endpoints/request/requestinfo.go NewRequestInfo derives them.
 */
class RequestAttributesTest {

  private static RequestAttributes resource(String verb, String path, String group, String namespace,
      String resource, String subresource, String name) {
    String[] parts = path.split("/");
    String version = parts[1].equals("api") ? parts[2] : parts[3];
    return new RequestAttributes(verb, true, path, group, version, namespace, resource, subresource, name);
  }

  @Test
  void httpMethodsMapToVerbsAndANamelessGetIsListOrWatch() {
    assertThat(RequestAttributes.of("GET", "/api/v1/namespaces/ns/pods/web-1"))
        .isEqualTo(resource("get", "/api/v1/namespaces/ns/pods/web-1", "", "ns", "pods", "", "web-1"));
    assertThat(RequestAttributes.of("GET", "/api/v1/namespaces/ns/pods?limit=500").verb()).isEqualTo("list");
    assertThat(RequestAttributes.of("GET", "/api/v1/pods?watch=true&resourceVersion=5").verb()).isEqualTo("watch");
    assertThat(RequestAttributes.of("GET", "/api/v1/pods?watch=1").verb()).isEqualTo("watch");
    assertThat(RequestAttributes.of("GET", "/api/v1/pods?watch=false").verb()).isEqualTo("list");
    assertThat(RequestAttributes.of("POST", "/api/v1/namespaces/ns/pods").verb()).isEqualTo("create");
    assertThat(RequestAttributes.of("PUT", "/api/v1/namespaces/ns/pods/web-1").verb()).isEqualTo("update");
    assertThat(RequestAttributes.of("PATCH", "/api/v1/namespaces/ns/pods/web-1").verb()).isEqualTo("patch");
    assertThat(RequestAttributes.of("DELETE", "/api/v1/namespaces/ns/pods/web-1").verb()).isEqualTo("delete");
    assertThat(RequestAttributes.of("DELETE", "/api/v1/namespaces/ns/pods").verb()).isEqualTo("deletecollection");
  }

  @Test
  void groupsSubresourcesAndClusterScope() {
    assertThat(RequestAttributes.of("PATCH", "/api/v1/namespaces/ns/pods/web-1/resize?fieldManager=headroom&force=true"))
        .isEqualTo(resource("patch", "/api/v1/namespaces/ns/pods/web-1/resize", "", "ns", "pods", "resize", "web-1"));
    assertThat(RequestAttributes.of("PATCH", "/apis/coordination.k8s.io/v1/namespaces/headroom/leases/ingest"))
        .isEqualTo(resource("patch", "/apis/coordination.k8s.io/v1/namespaces/headroom/leases/ingest",
            "coordination.k8s.io", "headroom", "leases", "", "ingest"));
    assertThat(RequestAttributes.of("GET", "/api/v1/nodes"))
        .isEqualTo(resource("list", "/api/v1/nodes", "", "", "nodes", "", ""));
    assertThat(RequestAttributes.of("PUT", "/apis/kube-headroom.dev/v1alpha1/headroomconfigs/cluster/status"))
        .isEqualTo(resource("update", "/apis/kube-headroom.dev/v1alpha1/headroomconfigs/cluster/status",
            "kube-headroom.dev", "", "headroomconfigs", "status", "cluster"));
  }

  @Test
  void aNamespaceIsItsOwnNameAndStatusOrFinalizeAreItsSubresources() {
    assertThat(RequestAttributes.of("GET", "/api/v1/namespaces/team-a"))
        .isEqualTo(resource("get", "/api/v1/namespaces/team-a", "", "team-a", "namespaces", "", "team-a"));
    assertThat(RequestAttributes.of("PUT", "/api/v1/namespaces/team-a/finalize"))
        .isEqualTo(resource("update", "/api/v1/namespaces/team-a/finalize", "", "team-a", "namespaces", "finalize", "team-a"));
    assertThat(RequestAttributes.of("GET", "/api/v1/namespaces").verb()).isEqualTo("list");
  }

  @Test
  void theWatchPrefixSetsTheVerbAndAMetadataNameSelectorTheName() {
    assertThat(RequestAttributes.of("GET", "/api/v1/watch/namespaces/ns/pods"))
        .isEqualTo(resource("watch", "/api/v1/watch/namespaces/ns/pods", "", "ns", "pods", "", ""));
    assertThat(RequestAttributes.of("GET", "/api/v1/namespaces/ns/pods?fieldSelector=metadata.name%3Dweb-1&watch=true"))
        .isEqualTo(resource("watch", "/api/v1/namespaces/ns/pods", "", "ns", "pods", "", "web-1"));
    assertThat(RequestAttributes.of("GET", "/api/v1/pods?fieldSelector=spec.nodeName%3Dn1").name()).isEmpty();
    assertThat(RequestAttributes.of("GET", "/api/v1/pods?fieldSelector=metadata.name!%3Dweb-1").name()).isEmpty();
  }

  @Test
  void discoveryAndOtherPathsAreNonResourceRequestsWithTheHttpVerb() {
    for (String path : new String[] {"/version", "/api", "/api/v1", "/apis", "/apis/apps", "/apis/apps/v1",
        "/openapi/v3", "/healthz"}) {
      RequestAttributes attributes = RequestAttributes.of("GET", path);
      assertThat(attributes.resourceRequest()).as(path).isFalse();
      assertThat(attributes.verb()).as(path).isEqualTo("get");
      assertThat(attributes.path()).isEqualTo(path);
    }
    assertThat(RequestAttributes.of("POST", "/metrics").verb()).isEqualTo("post");
  }
}
