package dev.kubeheadroom.projection;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kubeheadroom.schemas.OwnerRef;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.List;
import org.junit.jupiter.api.Test;

class VpaProjectionTest {
  static final ObjectMapper JSON = new ObjectMapper();

  static GenericKubernetesResource vpa(String specJson) {
    String json = "{'apiVersion':'autoscaling.k8s.io/v1','kind':'VerticalPodAutoscaler',"
        + "'metadata':{'name':'web-vpa','namespace':'team-a'},'spec':" + specJson + "}";
    try {
      return JSON.readValue(json.replace('\'', '"'), GenericKubernetesResource.class);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  static final String TARGET = "'targetRef':{'apiVersion':'apps/v1','kind':'Deployment','name':'web'}";

  @Test
  void aVpaWithDefaultsControlsLimits() {
    assertThat(VpaProjection.controlsLimits(vpa("{" + TARGET + "}"))).isTrue();
  }

  @Test
  void updateModeOffControlsNothing() {
    assertThat(VpaProjection.controlsLimits(vpa("{" + TARGET + ",'updatePolicy':{'updateMode':'Off'}}"))).isFalse();
    assertThat(VpaProjection.controlsLimits(vpa("{" + TARGET + ",'updatePolicy':{'updateMode':'Initial'}}"))).isTrue();
  }

  @Test
  void requestsOnlyForEveryContainerLeavesLimitsAlone() {
    assertThat(VpaProjection.controlsLimits(vpa("{" + TARGET
        + ",'resourcePolicy':{'containerPolicies':[{'containerName':'*','controlledValues':'RequestsOnly'}]}}")))
        .isFalse();
  }

  @Test
  void anyPolicyDefaultingToRequestsAndLimitsControlsLimits() {
    assertThat(VpaProjection.controlsLimits(vpa("{" + TARGET
        + ",'resourcePolicy':{'containerPolicies':[{'containerName':'*','controlledValues':'RequestsOnly'},"
        + "{'containerName':'app'}]}}"))).isTrue();
    assertThat(VpaProjection.controlsLimits(vpa("{" + TARGET
        + ",'resourcePolicy':{'containerPolicies':[{'containerName':'*','controlledValues':'RequestsAndLimits'}]}}")))
        .isTrue();
  }

  @Test
  void aContainerPolicyWithModeOffControlsNothing() {
    assertThat(VpaProjection.controlsLimits(vpa("{" + TARGET
        + ",'resourcePolicy':{'containerPolicies':[{'containerName':'*','mode':'Off'}]}}"))).isFalse();
  }

  @Test
  void namedRequestsOnlyPoliciesWithoutAWildcardCountAsControllingLimitsConservatively() {
    // Containers no policy names get the default, RequestsAndLimits.
    assertThat(VpaProjection.controlsLimits(vpa("{" + TARGET
        + ",'resourcePolicy':{'containerPolicies':[{'containerName':'app','controlledValues':'RequestsOnly'}]}}")))
        .isTrue();
  }

  @Test
  void exposesTheTargetRef() {
    VpaTarget target = VpaProjection.project(vpa("{" + TARGET + "}")).orElseThrow();

    assertThat(target).isEqualTo(new VpaTarget("team-a", "web-vpa", "Deployment", "web", true));
    assertThat(VpaProjection.project(vpa("{}"))).isEmpty();
  }

  @Test
  void aDeploymentMatchesPodsOfItsReplicaSetsByStrippingThePodTemplateHash() {
    List<OwnerRef> owners = List.of(new OwnerRef("ReplicaSet", "web-7c9d", "rs", true));

    assertThat(VpaProjection.ownerChainMatches("Deployment", "web", owners)).isTrue();
    assertThat(VpaProjection.ownerChainMatches("Deployment", "web-7c9d", owners)).isFalse();
    assertThat(VpaProjection.ownerChainMatches("Deployment", "we", owners)).isFalse();
    assertThat(VpaProjection.ownerChainMatches("ReplicaSet", "web-7c9d", owners)).isTrue();
    assertThat(VpaProjection.ownerChainMatches("StatefulSet", "web", owners)).isFalse();
  }

  @Test
  void directOwnersMatchByKindAndName() {
    assertThat(VpaProjection.ownerChainMatches("StatefulSet", "db",
        List.of(new OwnerRef("StatefulSet", "db", "u", true)))).isTrue();
    assertThat(VpaProjection.ownerChainMatches("DaemonSet", "agent",
        List.of(new OwnerRef("DaemonSet", "agent", "u", true)))).isTrue();
    assertThat(VpaProjection.ownerChainMatches("Job", "batch",
        List.of(new OwnerRef("Job", "batch", "u", true)))).isTrue();
    assertThat(VpaProjection.ownerChainMatches("CronJob", "nightly",
        List.of(new OwnerRef("Job", "nightly-29012345", "u", true)))).isTrue();
    assertThat(VpaProjection.ownerChainMatches("Deployment", "web", List.of())).isFalse();
  }

  @Test
  void aVpaOnlyTargetsPodsInItsOwnNamespace() {
    VpaTarget target = new VpaTarget("team-a", "v", "Deployment", "web", true);
    List<OwnerRef> owners = List.of(new OwnerRef("ReplicaSet", "web-7c9d", "rs", true));

    assertThat(target.targets("team-a", owners)).isTrue();
    assertThat(target.targets("team-b", owners)).isFalse();
  }
}
