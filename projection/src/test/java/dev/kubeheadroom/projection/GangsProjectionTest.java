package dev.kubeheadroom.projection;

import static dev.kubeheadroom.projection.ConfigProjectionTest.config;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kubeheadroom.schemas.ClusterConfig;
import dev.kubeheadroom.schemas.JsonCodec;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** spec.gangs.ownerKinds (docs/design/headroom-design.txt §11.6): one name, one default, read here. */
class GangsProjectionTest {

  @Test
  void readsTheOwnerKinds() {
    ClusterConfig config = ConfigProjection.project(config("{'gangs':{'ownerKinds':['Job','PyTorchJob']}}"));
    assertThat(config.gangOwnerKinds()).containsExactly("Job", "PyTorchJob");
  }

  @Test
  void withoutGangsTheConfigIsAndEncodesAsBefore() {
    ClusterConfig config = ConfigProjection.project(config("{'maxMultiplier':'3'}"));
    assertThat(config.gangOwnerKinds()).isEmpty();
    assertThat(new String(JsonCodec.encode(config), StandardCharsets.UTF_8)).doesNotContain("gang");
    assertThat(ConfigProjection.project(config("{'gangs':{}}")).gangOwnerKinds()).isEmpty();
  }

  @Test
  void aKindThatIsNotAStringIsRefusedNamingTheField() {
    assertThatThrownBy(() -> ConfigProjection.project(config("{'gangs':{'ownerKinds':['Job',3]}}")))
        .isInstanceOf(ConfigException.class).hasMessageContaining("spec.gangs.ownerKinds[1]");
  }
}
