package dev.kubeheadroom.deploy;

import static dev.kubeheadroom.deploy.Charts.Rendered.flag;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.deploy.Charts.Rendered;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** {@code topology.statefulSet.enabled}: state on a PVC per pod, static membership, standby replicas. */
class TopologyStatefulSetTest {
  private static final Map<String, String> STATEFUL = Map.of(
      "topology.statefulSet.enabled", "true", "topology.statefulSet.size", "8Gi",
      "topology.statefulSet.storageClassName", "fast", "topology.standbyReplicas", "1");

  @Test
  void byDefaultTheTopologyIsADeploymentWithoutStandbysButAStaticMemberNamedByItsPod() {
    Rendered rendered = Charts.operator();

    assertThat(rendered.all(StatefulSet.class)).isEmpty();
    Deployment topology = rendered.deployment("topology");
    assertThat(flag(topology, "--num-standby-replicas")).contains("0");
    // a container restarted after a stall takes the stuck member's place at once
    // (docs/reliability.md, finding 7); the kubelet keeps a pod's name across container restarts
    assertThat(flag(topology, "--group-instance-id")).contains("$(HEADROOM_POD_NAME)");
    assertThat(topology.getSpec().getTemplate().getSpec().getVolumes())
        .anySatisfy(v -> assertThat(v.getName()).isEqualTo("state"));
  }

  @Test
  void statefulSetKeepsStateOnAClaimPerPodAndJoinsAsAStaticMemberNamedByThePod() {
    Rendered rendered = Charts.operatorSet(STATEFUL);

    assertThat(rendered.find(Deployment.class, "kube-headroom-topology")).isEmpty();
    assertThat(rendered.deployments()).hasSize(3);
    StatefulSet topology = rendered.one(StatefulSet.class, "kube-headroom-topology");
    assertThat(topology.getSpec().getReplicas()).isEqualTo(2);
    assertThat(topology.getSpec().getPodManagementPolicy()).isEqualTo("Parallel");

    PersistentVolumeClaim claim = topology.getSpec().getVolumeClaimTemplates().get(0);
    assertThat(claim.getMetadata().getName()).isEqualTo("state");
    assertThat(claim.getSpec().getStorageClassName()).isEqualTo("fast");
    assertThat(claim.getSpec().getResources().getRequests()).containsEntry("storage", new Quantity("8Gi"));
    // The claim replaces the emptyDir: a pod volume of the same name would shadow it.
    assertThat(topology.getSpec().getTemplate().getSpec().getVolumes()).noneMatch(v -> v.getName().equals("state"));
    Container container = topology.getSpec().getTemplate().getSpec().getContainers().get(0);
    assertThat(container.getVolumeMounts()).anySatisfy(m -> {
      assertThat(m.getName()).isEqualTo("state");
      assertThat(m.getMountPath()).isEqualTo("/var/lib/headroom/state");
    });

    // $(HEADROOM_POD_NAME) is expanded by the kubelet from the container's env (downward API).
    assertThat(arg(container, "--group-instance-id")).contains("$(HEADROOM_POD_NAME)");
    assertThat(container.getEnv()).anySatisfy(e -> {
      assertThat(e.getName()).isEqualTo("HEADROOM_POD_NAME");
      assertThat(e.getValueFrom().getFieldRef().getFieldPath()).isEqualTo("metadata.name");
    });
    assertThat(arg(container, "--num-standby-replicas")).contains("1");
    assertThat(arg(container, "--state-dir")).contains("/var/lib/headroom/state");
  }

  @Test
  void theStatefulSetsHeadlessServiceSelectsItsPods() {
    Rendered rendered = Charts.operatorSet(STATEFUL);
    StatefulSet topology = rendered.one(StatefulSet.class, "kube-headroom-topology");
    Service governing = rendered.one(Service.class, topology.getSpec().getServiceName());

    assertThat(governing.getSpec().getClusterIP()).isEqualTo("None");
    assertThat(topology.getSpec().getTemplate().getMetadata().getLabels())
        .containsAllEntriesOf(governing.getSpec().getSelector());
    assertThat(topology.getSpec().getSelector().getMatchLabels()).isEqualTo(governing.getSpec().getSelector());
  }

  @Test
  void allInOneIgnoresTheTopologyStatefulSet() {
    Rendered rendered = Charts.operatorSet(Map.of("allInOne.enabled", "true", "topology.statefulSet.enabled", "true"));

    assertThat(rendered.all(StatefulSet.class)).isEmpty();
    assertThat(rendered.find(Service.class, "kube-headroom-topology")).isEmpty();
    assertThat(rendered.deployments()).hasSize(1);
    // headroom run's topology is a static member by pod name too: a restarted container (run
    // exits once a stage keeps failing) takes the old member's place at once
    Container run = rendered.deployments().get(0).getSpec().getTemplate().getSpec().getContainers().get(0);
    assertThat(arg(run, "--group-instance-id")).contains("$(HEADROOM_POD_NAME)");
  }

  private static Optional<String> arg(Container container, String name) {
    return container.getArgs().stream().filter(a -> a.startsWith(name + "="))
        .map(a -> a.substring(name.length() + 1)).findFirst();
  }
}
