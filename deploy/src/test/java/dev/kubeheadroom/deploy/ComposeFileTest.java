package dev.kubeheadroom.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * docker-compose.yml cannot run here (no Docker engine); this keeps its stage commands on the same
 * CLI contract as the Helm chart, so the two cannot drift apart silently.
 */
class ComposeFileTest {

  @Test
  @SuppressWarnings("unchecked")
  void composeStagesUseOnlyFlagsTheChartAlsoPasses() throws IOException {
    Map<String, Object> compose = Serialization.unmarshal(
        Files.readString(Charts.DEPLOY.resolveSibling("docker-compose.yml")), Map.class);
    Map<String, Map<String, Object>> services = (Map<String, Map<String, Object>>) compose.get("services");
    Set<String> chartFlags = new TreeSet<>();
    Stream.of(Charts.operator(), Charts.operator("production.yaml"), Charts.operator("all-in-one.yaml"))
        .flatMap(Charts.Rendered::containers)
        .flatMap(c -> c.getArgs().stream())
        .filter(a -> a.startsWith("--"))
        .forEach(a -> chartFlags.add(a.substring(0, a.indexOf('='))));

    for (String stage : List.of("ingest", "topology", "actuator", "webhook")) {
      List<String> args = Arrays.asList(((String) services.get(stage).get("command")).trim().split("\\s+"));
      assertThat(args.get(0)).as(stage).isEqualTo(stage);
      assertThat(args.subList(1, args.size())).as(stage).allSatisfy(a -> {
        assertThat(a).startsWith("--").contains("=");
        assertThat(chartFlags).contains(a.substring(0, a.indexOf('=')));
      });
      assertThat(args).as(stage).anyMatch(a -> a.startsWith("--kafka-bootstrap-servers="));
    }
  }
}
