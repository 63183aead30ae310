package dev.kubeheadroom.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * docker-compose.yml cannot run here (no Docker engine); this keeps its stage commands on the same
 * CLI contract as the Helm chart, so the two cannot drift apart silently, and checks what would
 * break on the first {@code docker compose up}: where data lands and who can read and write it.
 */
class ComposeFileTest {
  private static final List<String> STAGES = List.of("ingest", "topology", "actuator", "webhook");
  /** The stages that call the Kubernetes API (topology and webhook only talk to Kafka). */
  private static final List<String> KUBE_STAGES = List.of("ingest", "actuator");
  private static Map<String, Object> compose;

  @BeforeAll
  @SuppressWarnings("unchecked")
  static void read() throws IOException {
    compose = (Map<String, Object>) merged(
        Serialization.unmarshal(Files.readString(Charts.DEPLOY.resolveSibling("docker-compose.yml")), Map.class));
  }

  /**
   * The document with YAML merge keys applied ({@code <<: *anchor}: the anchor's entries under the
   * map's own), at every depth; the parser keeps {@code <<} as a plain key.
   */
  @SuppressWarnings("unchecked")
  private static Object merged(Object node) {
    if (node instanceof Map<?, ?> m) {
      Map<String, Object> out = new LinkedHashMap<>();
      if (m.get("<<") instanceof Map<?, ?> base) {
        out.putAll((Map<String, Object>) merged(base));
      }
      m.forEach((k, v) -> {
        if (!"<<".equals(k)) {
          out.put((String) k, merged(v));
        }
      });
      return out;
    }
    if (node instanceof List<?> l) {
      return l.stream().map(ComposeFileTest::merged).toList();
    }
    return node;
  }

  @Test
  void composeStagesUseOnlyFlagsTheChartAlsoPasses() {
    Set<String> chartFlags = new TreeSet<>();
    Stream.of(Charts.operator(), Charts.operator("production.yaml"), Charts.operator("all-in-one.yaml"))
        .flatMap(Charts.Rendered::containers)
        .flatMap(c -> c.getArgs().stream())
        .filter(a -> a.startsWith("--"))
        .forEach(a -> chartFlags.add(a.substring(0, a.indexOf('='))));

    for (String stage : STAGES) {
      List<String> args = args(stage);
      assertThat(args.get(0)).as(stage).isEqualTo(stage);
      assertThat(args.subList(1, args.size())).as(stage).allSatisfy(a -> {
        assertThat(a).startsWith("--").contains("=");
        assertThat(chartFlags).contains(a.substring(0, a.indexOf('=')));
      });
      assertThat(args).as(stage).anyMatch(a -> a.startsWith("--kafka-bootstrap-servers="));
    }
  }

  @Test
  void kafkaKeepsItsLogDirsOnItsVolume() {
    Map<String, Object> kafka = service("kafka");
    String logDirs = String.valueOf(map(kafka.get("environment")).get("KAFKA_LOG_DIRS"));

    // unset, the image writes to /tmp/kraft-combined-logs inside the container
    assertThat(logDirs).isNotEqualTo("null");
    for (String dir : logDirs.split(",")) {
      assertThat(namedVolumeAt("kafka", dir.trim())).as("a named volume holds %s", dir).isPresent();
    }
  }

  @Test
  void theTopologyStateIsOnAVolumeHeadroomInitGivesToTheStageUser() {
    String stateDir = flag("topology", "--state-dir");
    String volume = namedVolumeAt("topology", stateDir).orElseThrow(
        () -> new AssertionError("no named volume holds the topology's --state-dir " + stateDir));
    String uid = uid("topology");
    assertThat(uid).isNotEqualTo("0");

    // a new named volume is root's: headroom-init, as root, hands the mount to the stage's user
    Map<String, Object> init = service("headroom-init");
    assertThat(init.get("user")).isEqualTo("0:0");
    String mountedAt = mountOf("headroom-init", volume).orElseThrow(
        () -> new AssertionError("headroom-init does not mount " + volume));
    assertThat(initScript()).contains("chown " + uid + ":" + gid("topology") + " " + mountedAt);
    assertThat(dependsOnInit("topology")).isTrue();
  }

  @Test
  void everyStageThatCallsKubernetesReadsAKubeconfigItsUserOwns() {
    for (String stage : KUBE_STAGES) {
      String kubeconfig = String.valueOf(map(service(stage).get("environment")).get("KUBECONFIG"));
      Path file = Path.of(kubeconfig);
      // a bind mount of the host's file keeps its owner and mode (usually 0600, the host user's)
      assertThat(volumes(stage)).as(stage).noneMatch(v -> v.target().equals(kubeconfig) && !v.named());
      String volume = namedVolumeAt(stage, kubeconfig).orElseThrow(
          () -> new AssertionError(stage + ": no named volume holds " + kubeconfig));
      String initDir = mountOf("headroom-init", volume).orElseThrow();
      String target = initDir + "/" + file.getFileName();
      assertThat(initScript()).as(stage)
          .contains("install -o " + uid(stage) + " -g " + gid(stage) + " -m 0400 ")
          .contains(" " + target);
      assertThat(dependsOnInit(stage)).as(stage).isTrue();
    }
    // the host's kubeconfig reaches headroom-init only
    assertThat(volumes("headroom-init")).anyMatch(v -> v.source().contains("KUBECONFIG_FILE") && !v.named());
  }

  @Test
  void kafkaOnlyStagesGetNoKubeconfig() {
    for (String stage : List.of("topology", "webhook")) {
      assertThat(volumes(stage)).as(stage).noneMatch(v -> v.source().contains("kubeconfig")
          || v.source().contains("KUBECONFIG"));
    }
  }

  // --- helpers ---

  /** One entry of a service's {@code volumes}: {@code source:target[:mode]}. */
  private record Mount(String source, String target) {
    boolean named() {
      return !source.startsWith(".") && !source.startsWith("/") && !source.startsWith("$") && !source.startsWith("~");
    }
  }

  private static Map<String, Object> service(String name) {
    Map<String, Object> service = map(map(compose.get("services")).get(name));
    assertThat(service).as("service %s", name).isNotNull();
    return service;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> map(Object o) {
    return (Map<String, Object>) o;
  }

  private static List<Mount> volumes(String service) {
    Object list = service(service).get("volumes");
    if (list == null) {
      return List.of();
    }
    return ((List<?>) list).stream().map(String::valueOf).map(v -> {
      // the source may hold ${VAR:-~/path}: split at the ':' that follows it
      int close = v.lastIndexOf('}');
      int colon = v.indexOf(':', close < 0 ? 0 : close);
      String source = v.substring(0, colon);
      String rest = v.substring(colon + 1);
      return new Mount(source, rest.contains(":") ? rest.substring(0, rest.indexOf(':')) : rest);
    }).toList();
  }

  /** The named volume of {@code service} mounted at or above {@code path}. */
  private static Optional<String> namedVolumeAt(String service, String path) {
    Set<?> declared = map(compose.get("volumes")).keySet();
    return volumes(service).stream()
        .filter(v -> v.named() && Path.of(path).startsWith(Path.of(v.target())))
        .map(Mount::source)
        .filter(declared::contains)
        .findFirst();
  }

  private static Optional<String> mountOf(String service, String volume) {
    return volumes(service).stream().filter(v -> v.source().equals(volume)).map(Mount::target).findFirst();
  }

  private static String initScript() {
    return String.join("\n", ((List<?>) service("headroom-init").get("command")).stream().map(String::valueOf).toList());
  }

  private static boolean dependsOnInit(String stage) {
    Map<String, Object> depends = map(service(stage).get("depends_on"));
    return depends != null && "service_completed_successfully".equals(map(depends.get("headroom-init")).get("condition"));
  }

  private static String uid(String service) {
    return String.valueOf(service(service).get("user")).split(":")[0];
  }

  private static String gid(String service) {
    return String.valueOf(service(service).get("user")).split(":")[1];
  }

  private static List<String> args(String stage) {
    return Arrays.asList(((String) service(stage).get("command")).trim().split("\\s+"));
  }

  private static String flag(String stage, String name) {
    return args(stage).stream().filter(a -> a.startsWith(name + "=")).map(a -> a.substring(name.length() + 1))
        .findFirst().orElseThrow(() -> new AssertionError(stage + " has no " + name));
  }
}
