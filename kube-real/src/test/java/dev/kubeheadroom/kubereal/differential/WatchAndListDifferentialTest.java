package dev.kubeheadroom.kubereal.differential;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.kubereal.RealControlPlane;
import dev.kubeheadroom.kubereal.WithRealKubernetes;
import dev.kubeheadroom.kubedouble.ApiServerDouble;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.dsl.Watchable;
import java.util.Map;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodList;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What ingest's informers rely on, on the double and on the real kube-apiserver: LIST paging
 * ({@code limit}/{@code continue}), a watch resumed from a resourceVersion, and 410 once the
 * history it names is compacted (a watch, a continue token).
 */
@WithRealKubernetes
class WatchAndListDifferentialTest {
  private static Both both;

  @BeforeAll
  static void start(RealControlPlane api) {
    both = new Both(api);
    Crds.install(api);
  }

  static GenericKubernetesResource vpa(Front f, String ns, String name) {
    GenericKubernetesResource vpa = new GenericKubernetesResource();
    vpa.setApiVersion("autoscaling.k8s.io/v1");
    vpa.setKind("VerticalPodAutoscaler");
    vpa.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(ns).build());
    vpa.setAdditionalProperty("spec", Map.of("targetRef", Map.of("apiVersion", "apps/v1", "kind", "Deployment",
        "name", name), "updatePolicy", Map.of("updateMode", "Off")));
    return f.admin().genericKubernetesResources(ApiServerDouble.VERTICAL_POD_AUTOSCALER).inNamespace(ns)
        .resource(vpa).create();
  }

  @AfterAll
  static void stop() {
    both.close();
  }

  private static void fivePods(Front f, String ns) {
    Given.namespace(f, ns);
    for (String name : List.of("a", "b", "c", "d", "e")) {
      Given.pod(f, ns, name, "100m", "1");
    }
  }

  /** Pages of {@code limit}: the names on each, the remaining count, whether a token follows. */
  private static String pages(Front f, String ns, int limit) {
    List<String> pages = new ArrayList<>();
    String token = null;
    do {
      PodList page = f.admin().pods().inNamespace(ns)
          .list(new ListOptionsBuilder().withLimit((long) limit).withContinue(token).build());
      token = page.getMetadata().getContinue();
      pages.add(page.getItems().stream().map(p -> p.getMetadata().getName()).toList()
          + " remaining=" + page.getMetadata().getRemainingItemCount() + " more=" + (token != null));
    } while (token != null);
    return String.join("; ", pages);
  }

  @Test
  void aListIsPagedByLimitAndContinue() {
    String ns = both.ns("diff-paging");
    both.given(f -> fivePods(f, ns));
    Answer answer = both.same(f -> Answer.of(() -> pages(f, ns, 2)));
    assertThat(answer.result()).isEqualTo(
        "[a, b] remaining=3 more=true; [c, d] remaining=1 more=true; [e] remaining=null more=false");
  }

  /**
   * A token whose revision etcd compacted away. Not the token of a LIST just made: a real
   * server's watch cache keeps a snapshot for it and serves it after the compaction (the double
   * answers 410 there, see kube-double/DESIGN.md); one older than the cache's window goes to etcd.
   */
  @Test
  void aContinueTokenFromACompactedRevisionIs410() {
    String ns = both.ns("diff-continue-410");
    both.given(f -> {
      Given.namespace(f, ns);
      List.of("a", "b", "c", "d", "e").forEach(name -> vpa(f, ns, name));
    });
    Answer answer = both.same(f -> Answer.of(() -> {
      var vpas = f.admin().genericKubernetesResources(ApiServerDouble.VERTICAL_POD_AUTOSCALER).inNamespace(ns);
      String token = vpas.list(new ListOptionsBuilder().withLimit(2L).build()).getMetadata().getContinue();
      f.compact();
      return vpas.list(new ListOptionsBuilder().withLimit(2L).withContinue(atRevisionOne(token)).build())
          .getItems().stream().map(p -> p.getMetadata().getName()).toList().toString();
    }));
    assertThat(answer.code()).isEqualTo(410);
    assertThat(answer.reason()).isEqualTo("Expired");
  }

  /** The same continue token at revision 1 (etcd3's form: base64 of {"v":..,"rv":R,"start":..}). */
  private static String atRevisionOne(String token) {
    String json = new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(
        json.replaceFirst("\"rv\":\\d+", "\"rv\":1").getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void aWatchResumedFromAResourceVersionGetsOnlyTheLaterChanges() {
    String ns = both.ns("diff-resume");
    both.given(f -> Given.namespace(f, ns));
    Answer answer = both.same(f -> Answer.of(() -> {
      String from = Given.pod(f, ns, "a", "100m", "1").getMetadata().getResourceVersion();
      Given.pod(f, ns, "b", "100m", "1");
      f.admin().pods().inNamespace(ns).withName("a").edit(p -> {
        p.getMetadata().setLabels(Map.of("seen", "yes"));
        return p;
      });
      // not a deletion: the real server marks a pod deleting first (a MODIFIED), the double removes
      // it at once (kube-double/DESIGN.md)
      return String.join(" ", events(f.admin().pods().inNamespace(ns).withResourceVersion(from), 2));
    }));
    assertThat(answer.result()).isEqualTo("ADDED b MODIFIED a");
  }

  /**
   * A watch from a revision older than the server keeps. On the real server that is older than
   * its watch cache's window (etcd's compaction alone does not end a watch the cache serves), so
   * revision 1; the revisions in the message differ between the servers and are left out.
   */
  @Test
  void aWatchFromACompactedResourceVersionIs410() {
    String ns = both.ns("diff-watch-410");
    both.given(f -> Given.namespace(f, ns));
    Answer answer = both.same(f -> withoutRevisions(Answer.of(() -> {
      vpa(f, ns, "a");
      f.compact();
      return String.join(" ", events(f.admin().genericKubernetesResources(ApiServerDouble.VERTICAL_POD_AUTOSCALER)
          .inNamespace(ns).withResourceVersion("1"), 1));
    })));
    assertThat(answer.code()).isEqualTo(410);
    assertThat(answer.message()).isEqualTo("too old resource version: R (R)");
  }

  private static Answer withoutRevisions(Answer a) {
    return new Answer(a.code(), a.reason(), a.message().replaceAll("\\d+", "R"), a.details(), a.result());
  }

  /**
   * The first {@code count} events of a watch, as "TYPE name"; a watch closed with an error throws
   * its status, as an informer sees it.
   */
  private static <T extends HasMetadata> List<String> events(Watchable<T> from, int count) throws Exception {
    BlockingQueue<Object> seen = new LinkedBlockingQueue<>();
    Watcher<T> watcher = new Watcher<>() {
      @Override
      public void eventReceived(Action action, T object) {
        seen.add(action + " " + object.getMetadata().getName());
      }

      @Override
      public void onClose(WatcherException cause) {
        seen.add(cause);
      }
    };
    List<String> out = new ArrayList<>();
    try (Watch watch = from.watch(watcher)) {
      while (out.size() < count) {
        Object next = seen.poll(10, TimeUnit.SECONDS);
        if (next == null) {
          out.add("(no event within 10 s)");
          return out;
        }
        if (next instanceof WatcherException e) {
          throw e.asClientException();
        }
        out.add((String) next);
      }
    }
    return out;
  }
}
