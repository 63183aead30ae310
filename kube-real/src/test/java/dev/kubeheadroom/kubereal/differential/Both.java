package dev.kubeheadroom.kubereal.differential;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.kubedouble.ApiServerDouble;
import dev.kubeheadroom.kubereal.RealControlPlane;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The two servers of the differential suite: a fresh {@link ApiServerDouble} per test class and
 * the JVM's real kube-apiserver. {@link #same} sends one request to each and asserts the answers
 * are equal (the real server's is the expected one).
 */
final class Both implements AutoCloseable {
  /** The actuator's apply (ResizePatcher): server-side apply, field manager {@code headroom}, forced. */
  static final PatchContext RESIZE_APPLY = new PatchContext.Builder().withPatchType(PatchType.SERVER_SIDE_APPLY)
      .withFieldManager("headroom").withForce(true).build();

  /** Tells one class's namespaces from another's, and a rerun's from its first run's: the real server is shared. */
  private static final java.util.concurrent.atomic.AtomicInteger RUNS = new java.util.concurrent.atomic.AtomicInteger();

  final Front real;
  final Front dbl;
  private final int run = RUNS.incrementAndGet();

  Both(RealControlPlane api) {
    this.real = new Front.Real(api);
    this.dbl = new Front.Double(ApiServerDouble.start());
  }

  /** The real server's minor version (37 for v1.37.2). */
  int realMinor() {
    return Integer.parseInt(((Front.Real) real).api().binaries().version().split("\\.")[1]);
  }

  /** A namespace name of this class's own on the shared real server (the same on both servers). */
  String ns(String base) {
    return base + "-" + run;
  }

  /** Puts the same state in place on both. */
  void given(Consumer<Front> setup) {
    Given.node(real);
    Given.node(dbl);
    setup.accept(real);
    setup.accept(dbl);
  }

  /** The same request to both; the double's answer must be the real server's. */
  Answer same(Function<Front, Answer> request) {
    Answer expected = request.apply(real);
    Answer actual = request.apply(dbl);
    assertThat(actual).as("kube-double's answer (actual) vs kube-apiserver's (expected)").isEqualTo(expected);
    return expected;
  }

  /**
   * The actuator's resize request (ResizePatcher.body): only name, namespace, uid and each owned
   * container's CPU limit, an empty list of sidecars, applied on {@code pods/resize}.
   */
  static Answer resize(KubernetesClient client, String ns, String name, String cpu) {
    return Answer.of(() -> {
      Pod current = client.pods().inNamespace(ns).withName(name).get();
      String uid = current == null ? "00000000-0000-0000-0000-000000000000" : current.getMetadata().getUid();
      Container limit = new ContainerBuilder().withName("app").withNewResources()
          .addToLimits("cpu", new Quantity(cpu)).endResources().build();
      Pod body = new PodBuilder().withApiVersion("v1").withKind("Pod")
          .withNewMetadata().withName(name).withNamespace(ns).withUid(uid).endMetadata()
          .withNewSpec().withContainers(limit).withInitContainers(List.of()).endSpec().build();
      return resources(client.pods().inNamespace(ns).resource(body).subresource("resize").patch(RESIZE_APPLY));
    });
  }

  /** The fields of a pod the product reads after a resize: each container's CPU, the generation. */
  static String resources(Pod pod) {
    StringBuilder out = new StringBuilder("generation=" + pod.getMetadata().getGeneration());
    for (Container c : pod.getSpec().getContainers()) {
      out.append(' ').append(c.getName()).append("=").append(c.getResources().getRequests().get("cpu"))
          .append('/').append(c.getResources().getLimits().get("cpu"));
    }
    return out.toString();
  }

  @Override
  public void close() {
    real.close();
    dbl.close();
  }
}
