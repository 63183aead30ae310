package dev.kubeheadroom.kubedouble;

import static dev.kubeheadroom.kubedouble.TestPods.burstable;
import static dev.kubeheadroom.kubedouble.TestPods.cpuLimitOnly;
import static dev.kubeheadroom.kubedouble.TestPods.headroomApply;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.LimitRangeBuilder;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Objects found by name ({@link ObjectIndex}) rather than by a scan of the store: the same
 * answers the scan gave, through creates, label changes, deletes and names shared across
 * namespaces and resources.
 */
class ObjectIndexTest {
  private ApiServerDouble api;
  private KubernetesClient client;

  @BeforeEach
  void start() {
    api = ApiServerDouble.start();
    client = api.client();
  }

  @AfterEach
  void stop() {
    api.close();
  }

  private void create(String namespace, String name, String team) {
    Pod pod = new PodBuilder(burstable(name, "web", "100m", "1")).editMetadata().withNamespace(namespace)
        .withLabels(Map.of("team", team)).endMetadata().build();
    client.pods().inNamespace(namespace).resource(pod).create();
  }

  @Test
  void aNameSharedByTwoNamespacesAndANodeFindsEachObjectItself() {
    // given
    create("a", "web", "red");
    create("b", "web", "blue");
    client.nodes().resource(new NodeBuilder().withNewMetadata().withName("web").endMetadata().build()).create();

    // then
    assertThat(client.pods().inNamespace("a").withName("web").get().getMetadata().getLabels()).containsEntry("team", "red");
    assertThat(client.pods().inNamespace("b").withName("web").get().getMetadata().getLabels()).containsEntry("team", "blue");
    assertThat(client.nodes().withName("web").get().getKind()).isEqualTo("Node");
    assertThat(client.pods().inNamespace("c").withName("web").get()).isNull();
  }

  @Test
  void aPatchThatChangesLabelsAndADeleteAreSeenByTheNextLookup() {
    // given
    create("a", "web", "red");
    create("b", "web", "blue");

    // when: the labels are part of the stored key, so the entry moves
    client.pods().inNamespace("a").withName("web").edit(p -> new PodBuilder(p).editMetadata()
        .addToLabels("team", "green").endMetadata().build());
    client.pods().inNamespace("a").withName("web").edit(p -> new PodBuilder(p).editMetadata()
        .addToAnnotations("note", "second write").endMetadata().build());

    // then
    Pod patched = client.pods().inNamespace("a").withName("web").get();
    assertThat(patched.getMetadata().getLabels()).containsEntry("team", "green");
    assertThat(patched.getMetadata().getAnnotations()).containsEntry("note", "second write");
    assertThat(client.pods().inAnyNamespace().withLabel("team", "green").list().getItems()).hasSize(1);
    assertThat(api.pod("a", "web")).hasValueSatisfying(p -> assertThat(p.getMetadata().getLabels())
        .containsEntry("team", "green"));

    // when
    client.pods().inNamespace("a").withName("web").delete();

    // then
    assertThat(client.pods().inNamespace("a").withName("web").get()).isNull();
    assertThat(api.pod("a", "web")).isEmpty();
    assertThat(client.pods().inNamespace("b").withName("web").get()).isNotNull();

    // when: the same name again
    create("a", "web", "yellow");

    // then
    assertThat(client.pods().inNamespace("a").withName("web").get().getMetadata().getLabels())
        .containsEntry("team", "yellow");
  }

  @Test
  void aCreateOfANameThatExistsIsStillAConflict() {
    // given
    create("a", "web", "red");

    // then: the stock create finds the existing object through the index
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> create("a", "web", "blue"))
        .hasMessageContaining("409");
  }

  @Test
  void aResizeSeesItsNamespacesLimitRangeAsItIsNowThroughCreateEditAndDelete() {
    // given: the resize admission reads the namespace's LimitRanges from the collection index
    create("a", "web", "red");
    create("b", "web", "blue");
    client.limitRanges().inNamespace("a").resource(new LimitRangeBuilder().withNewMetadata().withName("max")
        .withNamespace("a").endMetadata().withNewSpec().addNewLimit().withType("Container")
        .addToMax("cpu", new Quantity("2")).endLimit().endSpec().build()).create();

    // then: it applies in a, not in b
    assertThatThrownBy(() -> resize("a", "3")).hasMessageContaining("maximum cpu usage per Container is 2");
    assertThat(resize("b", "3")).isEqualTo(new Quantity("3"));

    // when: its max is raised, the next resize sees the new object
    client.limitRanges().inNamespace("a").withName("max").edit(l -> new LimitRangeBuilder(l).editSpec()
        .editFirstLimit().addToMax("cpu", new Quantity("4")).endLimit().endSpec().build());
    assertThat(resize("a", "3")).isEqualTo(new Quantity("3"));
    assertThatThrownBy(() -> resize("a", "5")).hasMessageContaining("maximum cpu usage per Container is 4");

    // when: deleted, nothing limits the resize
    client.limitRanges().inNamespace("a").withName("max").delete();
    assertThat(resize("a", "5")).isEqualTo(new Quantity("5"));
  }

  private Quantity resize(String namespace, String cpuLimit) {
    Pod body = new PodBuilder(cpuLimitOnly("web", "app", cpuLimit)).editMetadata().withNamespace(namespace).endMetadata().build();
    return client.pods().inNamespace(namespace).resource(body).subresource("resize").patch(headroomApply()).getSpec().getContainers().get(0).getResources().getLimits().get("cpu");
  }
}
