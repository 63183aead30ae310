package dev.kubeheadroom.kubedouble;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Test;

/** QoS classes as {@code ComputePodQOS} computes them (requests already defaulted from limits). */
class QosClassTest {

  private static JsonNode spec(String containersJson) throws Exception {
    return Serialization.jsonMapper().readTree("{\"containers\":" + containersJson + "}");
  }

  @Test
  void noRequestsOrLimitsIsBestEffort() throws Exception {
    assertThat(QosClass.of(spec("[{\"name\":\"a\"}]"))).isEqualTo(QosClass.BestEffort);
  }

  @Test
  void zeroQuantitiesCountAsAbsent() throws Exception {
    assertThat(QosClass.of(spec("[{\"name\":\"a\",\"resources\":{\"requests\":{\"cpu\":\"0\"}}}]")))
        .isEqualTo(QosClass.BestEffort);
  }

  @Test
  void onlyCpuAndMemoryCount() throws Exception {
    assertThat(QosClass.of(spec("[{\"name\":\"a\",\"resources\":{\"requests\":{\"ephemeral-storage\":\"1Gi\"}}}]")))
        .isEqualTo(QosClass.BestEffort);
  }

  @Test
  void equalCpuAndMemoryRequestsAndLimitsInEveryContainerIsGuaranteed() throws Exception {
    String c = "{\"name\":\"%s\",\"resources\":{\"requests\":{\"cpu\":\"1\",\"memory\":\"1Gi\"},"
        + "\"limits\":{\"cpu\":\"1000m\",\"memory\":\"1024Mi\"}}}";
    assertThat(QosClass.of(spec("[" + c.formatted("a") + "," + c.formatted("b") + "]")))
        .isEqualTo(QosClass.Guaranteed);
  }

  @Test
  void aContainerWithoutAMemoryLimitMakesThePodBurstable() throws Exception {
    assertThat(QosClass.of(spec("[{\"name\":\"a\",\"resources\":{\"requests\":{\"cpu\":\"1\"},"
        + "\"limits\":{\"cpu\":\"1\"}}}]"))).isEqualTo(QosClass.Burstable);
  }

  @Test
  void aCpuLimitAboveTheRequestIsBurstable() throws Exception {
    assertThat(QosClass.of(spec("[{\"name\":\"a\",\"resources\":{\"requests\":{\"cpu\":\"500m\",\"memory\":\"1Gi\"},"
        + "\"limits\":{\"cpu\":\"1\",\"memory\":\"1Gi\"}}}]"))).isEqualTo(QosClass.Burstable);
  }

  @Test
  void oneBestEffortContainerBesideAGuaranteedOneMakesThePodBurstable() throws Exception {
    assertThat(QosClass.of(spec("[{\"name\":\"a\",\"resources\":{\"requests\":{\"cpu\":\"1\",\"memory\":\"1Gi\"},"
        + "\"limits\":{\"cpu\":\"1\",\"memory\":\"1Gi\"}}},{\"name\":\"b\"}]"))).isEqualTo(QosClass.Burstable);
  }

  @Test
  void initContainersCountToo() throws Exception {
    JsonNode spec = Serialization.jsonMapper().readTree("{\"initContainers\":[{\"name\":\"i\","
        + "\"resources\":{\"requests\":{\"cpu\":\"100m\"}}}],\"containers\":[{\"name\":\"a\"}]}");
    assertThat(QosClass.of(spec)).isEqualTo(QosClass.Burstable);
  }

  @Test
  void creationDefaultsRequestsFromLimitsSoLimitsOnlyIsGuaranteed() throws Exception {
    var pod = (com.fasterxml.jackson.databind.node.ObjectNode) Serialization.jsonMapper().readTree(
        "{\"spec\":{\"containers\":[{\"name\":\"a\",\"resources\":{\"limits\":{\"cpu\":\"1\",\"memory\":\"1Gi\"}}}]}}");
    PodDefaults.applyOnCreate(pod, false);
    assertThat(pod.path("status").path("qosClass").asText()).isEqualTo("Guaranteed");
    assertThat(pod.path("spec").path("containers").get(0).path("resources").path("requests").path("cpu").asText())
        .isEqualTo("1");
  }
}
