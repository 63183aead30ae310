package dev.kubeheadroom.installed;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The harness expands a container's args as the kubelet does: third_party/forked/golang/expansion/expand.go
 * ({@code Expand}, {@code tryReadVariableName}) over the container's env
 * (pkg/kubelet/container/helpers.go {@code ExpandContainerCommandAndArgs}).
 */
class ArgExpansionTest {
  private static final Map<String, String> ENV = Map.of("HEADROOM_POD_NAME", "kube-headroom-topology-0", "A", "x");

  @Test
  void aDefinedVariableIsReplacedByItsValue() {
    assertThat(ArgExpansion.expand("--group-instance-id=$(HEADROOM_POD_NAME)", ENV))
        .isEqualTo("--group-instance-id=kube-headroom-topology-0");
    assertThat(ArgExpansion.expand("$(A)-$(A)", ENV)).isEqualTo("x-x");
  }

  @Test
  void anUndefinedVariableStaysAsWritten() {
    assertThat(ArgExpansion.expand("--id=$(MISSING)", ENV)).isEqualTo("--id=$(MISSING)");
  }

  @Test
  void aDoubledDollarEscapesAndALoneOrUnclosedOneStays() {
    assertThat(ArgExpansion.expand("$$(A)", ENV)).isEqualTo("$(A)");
    assertThat(ArgExpansion.expand("a$b$", ENV)).isEqualTo("a$b$");
    assertThat(ArgExpansion.expand("$(A", ENV)).isEqualTo("$(A");
  }

  @Test
  void theAdvertisedBookingsEndpointIsTheLoopbackAddressAtTheMetricsPortsLocalPort() {
    String expanded = ArgExpansion.expand("--application-server=$(HEADROOM_POD_IP):8443",
        Map.of("HEADROOM_POD_IP", "127.0.0.1"));
    assertThat(PodPlanner.substitute(expanded, Map.of(8443, 20443), Map.of()))
        .isEqualTo("--application-server=127.0.0.1:20443");
    assertThat(PodPlanner.substitute("--application-server=127.0.0.1:9999", Map.of(8443, 20443), Map.of()))
        .isEqualTo("--application-server=127.0.0.1:9999"); // not a container port: left alone
  }
}
