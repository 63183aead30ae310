package dev.kubeheadroom.kubedouble;

import static dev.kubeheadroom.kubedouble.TestPods.NS;
import static dev.kubeheadroom.kubedouble.TestPods.burstable;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

import dev.kubeheadroom.kubedouble.ApiRequest.Verb;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodList;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** LIST with limit and continue. */
class ListPagingTest {
  private ApiServerDouble api;

  @BeforeEach
  void start() {
    api = ApiServerDouble.start();
  }

  @AfterEach
  void stop() {
    api.close();
  }

  private void create(String namespace, String name) {
    Pod pod = new PodBuilder(burstable(name, "n1", "100m", "1")).editMetadata().withNamespace(namespace)
        .endMetadata().build();
    api.client().pods().inNamespace(namespace).resource(pod).create();
  }

  private PodList page(Long limit, String continueToken) {
    return api.client().pods().inAnyNamespace()
        .list(new ListOptionsBuilder().withLimit(limit).withContinue(continueToken).build());
  }

  private static List<String> keys(PodList list) {
    return list.getItems().stream().map(p -> p.getMetadata().getNamespace() + "/" + p.getMetadata().getName())
        .toList();
  }

  // etcd3/store.go GetList: items come in key order (namespace/name); with limit, at most that many,
  // a continue token, and remainingItemCount when no selector filters.
  @Test
  void aLimitedListAnswersAtMostLimitItemsInKeyOrderWithAContinueTokenAndTheRemainingCount() {
    // given
    create("b", "x");
    create("a", "z");
    create("a", "y");
    create("c", "w");
    create("a-b", "v");
    // when
    PodList first = page(2L, null);
    PodList second = page(2L, first.getMetadata().getContinue());
    PodList last = page(2L, second.getMetadata().getContinue());
    // then
    assertThat(keys(first)).containsExactly("a-b/v", "a/y");
    assertThat(first.getMetadata().getRemainingItemCount()).isEqualTo(3);
    assertThat(keys(second)).containsExactly("a/z", "b/x");
    assertThat(keys(last)).containsExactly("c/w");
    assertThat(last.getMetadata().getContinue()).isNull();
    assertThat(last.getMetadata().getRemainingItemCount()).isNull();
    assertThat(first.getMetadata().getResourceVersion()).isEqualTo(String.valueOf(api.revision()));
  }

  // etcd3/store.go GetList: every page after the first is read at the revision in the continue
  // token, so objects created, changed or deleted meanwhile do not show: each object of the
  // snapshot is returned exactly once, as it was.
  @Test
  void pagingReturnsEveryObjectOfTheSnapshotExactlyOnceWhileObjectsChange() {
    // given
    for (int i = 0; i < 9; i++) {
      create(NS, "p" + i);
    }
    // when
    List<String> seen = new ArrayList<>();
    List<String> versions = new ArrayList<>();
    PodList page = page(3L, null);
    String snapshot = page.getMetadata().getResourceVersion();
    int round = 0;
    while (true) {
      seen.addAll(keys(page));
      versions.add(page.getMetadata().getResourceVersion());
      page.getItems().forEach(p -> assertThat(p.getMetadata().getLabels()).doesNotContainKey("late"));
      if (page.getMetadata().getContinue() == null) {
        break;
      }
      create(NS, "a" + round);           // sorts before every page still to come
      create(NS, "q" + round);           // sorts after them
      api.client().pods().inNamespace(NS).withName("p8").edit(p -> new PodBuilder(p).editMetadata()
          .addToLabels("late", "yes").endMetadata().build());
      if (round == 0) {
        api.client().pods().inNamespace(NS).withName("p7").delete();
      }
      round++;
      page = page(3L, page.getMetadata().getContinue());
    }
    // then
    assertThat(seen).containsExactly(NS + "/p0", NS + "/p1", NS + "/p2", NS + "/p3", NS + "/p4", NS + "/p5",
        NS + "/p6", NS + "/p7", NS + "/p8");
    assertThat(versions).containsOnly(snapshot);
  }

  // etcd3/store.go GetList: a continue token whose revision has been compacted is 410 Expired with
  // this message, and the Status carries a token that continues from the current state.
  @Test
  void aContinueTokenOlderThanTheHistoryIs410Expired() {
    // given
    for (int i = 0; i < 4; i++) {
      create(NS, "p" + i);
    }
    PodList first = page(2L, null);
    create(NS, "p9");
    api.compactHistory();
    // when
    KubernetesClientException gone = catchThrowableOfType(KubernetesClientException.class,
        () -> page(2L, first.getMetadata().getContinue()));
    // then
    assertThat(gone.getCode()).isEqualTo(410);
    assertThat(gone.getStatus().getReason()).isEqualTo("Expired");
    assertThat(gone.getStatus().getMessage()).isEqualTo(ListPager.CONTINUE_EXPIRED);
    String inconsistent = gone.getStatus().getMetadata().getContinue();
    assertThat(keys(page(10L, inconsistent))).containsExactly(NS + "/p2", NS + "/p3", NS + "/p9");
  }

  // etcd3/store.go GetList filters while paging: a field-selected page holds only matching items
  // and, being filtered, no remainingItemCount.
  @Test
  void aFieldSelectedListPagesOverTheMatchingItemsOnly() {
    for (int i = 0; i < 5; i++) {
      api.client().pods().inNamespace(NS).resource(burstable("p" + i, i % 2 == 0 ? "n1" : "n2", "100m", "1"))
          .create();
    }
    PodList first = api.client().pods().inAnyNamespace().withField("spec.nodeName", "n1")
        .list(new ListOptionsBuilder().withLimit(2L).build());
    PodList rest = api.client().pods().inAnyNamespace().withField("spec.nodeName", "n1")
        .list(new ListOptionsBuilder().withLimit(2L).withContinue(first.getMetadata().getContinue()).build());
    assertThat(keys(first)).containsExactly(NS + "/p0", NS + "/p2");
    assertThat(first.getMetadata().getRemainingItemCount()).isNull();
    assertThat(keys(rest)).containsExactly(NS + "/p4");
  }

  // What informers do with it (fabric8 Reflector.processList): with a limit they list page by page,
  // following continue tokens, and end with every object.
  @Test
  void anInformerWithALimitListsInPagesAndHoldsEveryObject() {
    for (int i = 0; i < 5; i++) {
      create(NS, "p" + i);
    }
    SharedIndexInformer<Pod> informer = api.newClient().pods().inAnyNamespace().withLimit(2L).inform();
    try {
      await().atMost(Duration.ofSeconds(20)).until(informer::hasSynced);
      assertThat(informer.getStore().list()).hasSize(5);
      assertThat(api.requests().count(Verb.LIST, "pods", "")).isEqualTo(3);
    } finally {
      informer.close();
    }
  }
}
