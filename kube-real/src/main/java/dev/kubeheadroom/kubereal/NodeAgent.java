package dev.kubeheadroom.kubereal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kubeheadroom.kubedouble.KubeletDouble.ResizeAnswer;
import dev.kubeheadroom.kubedouble.KubeletEvents;
import dev.kubeheadroom.kubedouble.KubeletRules;
import dev.kubeheadroom.kubedouble.KubeletRules.ResizeProgram;
import dev.kubeheadroom.kubedouble.KubeletWork;
import dev.kubeheadroom.kubedouble.ServerVersion;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The kubelet's side of the API for every node at once, as a client of a real kube-apiserver:
 * registers Nodes with capacity and allocatable, starts bound pods (Running, container statuses)
 * and acts on resizes, writing {@code pods/status} as a kubelet does. The decisions are
 * {@link KubeletRules}, the same rules {@code kube-double}'s kubelet applies to its own store:
 * one implementation, two front ends, as a kubelet of the server's release, Events included
 * ({@link KubeletEvents}). No container runs: the agent answers for the API only
 * (the real-node profile has a real kubelet for what a container does).
 */
public final class NodeAgent implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(NodeAgent.class);

  private final KubernetesClient client;
  private final KubernetesSerialization json;
  private final Clock clock;
  private final SharedIndexInformer<Pod> pods;
  private final SharedIndexInformer<Node> nodes;
  private final KubeletWork work = new KubeletWork("node-agent");
  private final KubeletRules.NodeView view;
  private final ServerVersion version;
  private volatile boolean closed;

  private NodeAgent(KubernetesClient client, Clock clock) {
    this.client = client;
    this.json = client.getKubernetesSerialization();
    this.clock = clock;
    this.version = ServerVersion.of(client.getKubernetesVersion().getGitVersion()); // the kubelet is the server's release
    this.nodes = client.nodes().inform();
    this.view = new KubeletRules.NodeView() {
      @Override
      public Optional<JsonNode> node(String name) {
        return Optional.ofNullable(nodes.getStore().getByKey(name)).map(n -> tree(n));
      }

      @Override
      public List<JsonNode> podsOn(String name) {
        return pods.getStore().list().stream()
            .filter(p -> name.equals(p.getSpec().getNodeName()))
            .map(p -> (JsonNode) tree(p))
            .toList();
      }
    };
    this.pods = client.pods().inAnyNamespace().inform(new ResourceEventHandler<>() {
      @Override
      public void onAdd(Pod pod) {
        submit(pod);
      }

      @Override
      public void onUpdate(Pod before, Pod pod) {
        submit(pod);
      }

      @Override
      public void onDelete(Pod pod, boolean finalStateUnknown) {
        work.deleted(key(pod)).forEach(NodeAgent.this::submitKey); // room freed: a deferred resize may fit now
      }
    });
  }

  /** Starts the agent as {@code client} (it needs to read pods and nodes and write their status). */
  public static NodeAgent start(KubernetesClient client) {
    return new NodeAgent(client, Clock.systemUTC());
  }

  /**
   * Registers Node {@code name} as its kubelet would: Ready, with this capacity (also its
   * allocatable) and a kubelet version equal to the server's.
   */
  public Node registerNode(String name, String cpu, String memory) {
    Node existing = client.nodes().withName(name).get();
    if (existing != null) { // a kubelet restarting keeps its Node
      return existing;
    }
    Map<String, Quantity> capacity = Map.of("cpu", new Quantity(cpu), "memory", new Quantity(memory),
        "pods", new Quantity("250"));
    String kubeletVersion = version.gitVersion();
    Node node = new NodeBuilder()
        .withNewMetadata().withName(name)
            .addToLabels("kubernetes.io/hostname", name).addToLabels("kubernetes.io/os", "linux")
        .endMetadata()
        .withNewStatus()
            .withCapacity(capacity).withAllocatable(capacity)
            .addNewCondition().withType("Ready").withStatus("True").withReason("KubeletReady")
                .withMessage("kubelet is posting ready status")
                .withLastHeartbeatTime(clock.instant().toString())
                .withLastTransitionTime(clock.instant().toString()).endCondition()
            .withNewNodeInfo().withKubeletVersion(kubeletVersion).withOperatingSystem("linux")
                .withArchitecture("amd64").withContainerRuntimeVersion("containerd://node-agent")
                .withKernelVersion("").withOsImage("node-agent").withMachineID("").withSystemUUID("")
                .withBootID("").withKubeProxyVersion("").endNodeInfo()
        .endStatus()
        .build();
    Node created = client.nodes().resource(node).create();
    if (created.getStatus() == null || created.getStatus().getAllocatable() == null
        || created.getStatus().getAllocatable().isEmpty()) {
      created.setStatus(node.getStatus()); // a server that drops status on create: nodes/status
      created = client.nodes().resource(created).updateStatus();
    }
    return created;
  }

  /**
   * From now on, answer resizes of pods on {@code node} this way; {@code APPLY} hands the
   * decision back to the rules. Pods on the node are re-examined at once.
   */
  public void answerResizes(String node, ResizeAnswer answer, String message) {
    Objects.requireNonNull(answer, "answer");
    work.program(node, new ResizeProgram(answer, message == null ? "" : message));
    pods.getStore().list().stream()
        .filter(p -> node.equals(p.getSpec().getNodeName()))
        .forEach(this::submit);
  }

  /** How long an admitted resize shows {@code PodResizeInProgress} (zero: actuate at once). */
  public void actuationDelay(Duration delay) {
    work.actuationDelay(delay);
  }

  /** How many status writes the agent has made. */
  public long statusWrites() {
    return work.statusWrites();
  }

  private void submit(Pod pod) {
    submitKey(key(pod));
  }

  private void submitKey(String key) {
    if (closed) {
      return;
    }
    if (!work.execute(() -> reconcile(key))) {
      LOG.debug("node agent closed; ignoring Pod({})", key);
    }
  }

  private void reconcile(String key) {
    Pod pod = pods.getStore().getByKey(key);
    if (pod == null || pod.getSpec().getNodeName() == null) {
      return;
    }
    ObjectNode before = tree(pod);
    ObjectNode after = before.deepCopy();
    String uid = pod.getMetadata().getUid();
    KubeletRules.Effect effect = work.reconcile(after, view, pod.getSpec().getNodeName(), uid, key, version,
        clock.instant().toString());
    if (!after.equals(before)) {
      try {
        client.pods().inNamespace(pod.getMetadata().getNamespace())
            .resource(json.convertValue(after, Pod.class)).updateStatus();
        work.statusWritten();
      } catch (KubernetesClientException e) {
        if (e.getCode() == 409) { // a newer pod is on its way through the informer
          LOG.debug("node agent: Pod({}) changed under its status write; retried on the next event", key);
        } else if (e.getCode() != 404) {
          LOG.warn("node agent: status write of Pod({}) refused: {}", key, e.getMessage());
        }
        return;
      }
    }
    KubeletEvents.write(client, after, pod.getSpec().getNodeName(), effect.events(), clock.instant());
    if (effect.actuateLater()) {
      work.actuateLater(uid, () -> reconcile(key));
    }
  }

  private ObjectNode tree(Object object) {
    return json.convertValue(object, ObjectNode.class);
  }

  private static String key(Pod pod) {
    return pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName();
  }

  @Override
  public void close() {
    closed = true;
    pods.close();
    nodes.close();
    work.close();
  }
}
