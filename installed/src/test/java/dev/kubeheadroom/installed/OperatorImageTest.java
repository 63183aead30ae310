package dev.kubeheadroom.installed;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The operator image Jib builds in module cli's package phase ({@code cli/target/headroom-image.tar},
 * OCI layout), opened as a tarball: who it runs as, what it runs, and that its class path is the
 * operator jar's runtime class path, with none of the test doubles or the demo.
 */
class OperatorImageTest {
  static final Path IMAGE = PodPlanner.CLI_JAR.resolveSibling("headroom-image.tar");
  private static OciImage image;

  @BeforeAll
  static void open() throws IOException {
    assertThat(IMAGE).as("build it with mvn -pl cli -am package").isRegularFile();
    image = OciImage.read(IMAGE);
  }

  @Test
  void runsAsANonRootUserWithOciLabels() {
    JsonNode config = image.config().path("config");
    String user = config.path("User").asText();
    assertThat(user).isEqualTo("10001:10001");
    assertThat(user.split(":")[0]).isNotIn("0", "root");
    assertThat(config.path("Labels").path("org.opencontainers.image.title").asText()).isEqualTo("kube-headroom");
    assertThat(config.path("Labels").path("org.opencontainers.image.version").asText()).isNotBlank();
  }

  @Test
  void theEntrypointRunsTheOperatorsMainOnTheImagesClassPath() {
    List<String> entrypoint = Stream.of(image.config().path("config").path("Entrypoint"))
        .flatMap(n -> java.util.stream.StreamSupport.stream(n.spliterator(), false))
        .map(JsonNode::asText).toList();
    assertThat(entrypoint).containsExactly("java", "-cp", "@/app/jib-classpath-file", "dev.kubeheadroom.cli.Main");
    assertThat(image.text("app/jib-main-class-file").strip()).isEqualTo("dev.kubeheadroom.cli.Main");
    assertThat(image.files()).containsKey("app/classes/dev/kubeheadroom/cli/Main.class");
    // every class path entry is in the image
    assertThat(classPath()).isNotEmpty().allSatisfy(entry ->
        assertThat(entry.equals("/app/classes") || entry.equals("/app/resources")
            || image.files().containsKey(entry.substring(1))).as(entry).isTrue());
  }

  @Test
  void theClassPathIsTheOperatorJarsRuntimeClassPath() throws IOException {
    // what headroom run needs: the jars OperatorJarTest checks in cli/target/lib
    Set<String> lib;
    try (Stream<Path> jars = Files.list(OperatorJarTest.LIB)) {
      lib = jars.map(p -> p.getFileName().toString()).collect(Collectors.toSet());
    }
    Set<String> imageJars = classPath().stream().filter(e -> e.startsWith("/app/libs/"))
        .map(e -> e.substring("/app/libs/".length())).collect(Collectors.toSet());
    assertThat(imageJars).isEqualTo(lib);
    assertThat(imageJars).anyMatch(j -> j.startsWith("logback-classic-"))
        .anyMatch(j -> j.startsWith("kafka-streams-"))
        .anyMatch(j -> j.startsWith("kubernetes-client-"));
  }

  @Test
  void noTestDoubleOrDemoShips() {
    assertThat(classPath()).noneMatch(e -> e.contains("kube-double") || e.contains("mockwebserver")
        || e.contains("kafka-streams-test-utils") || e.contains("headroom-demo")
        || e.contains("testkit") || e.contains("slf4j-simple") || e.contains("junit"));
    assertThat(image.files().keySet()).noneMatch(path -> path.startsWith("app/classes/dev/kubeheadroom/kubedouble/")
        || path.startsWith("app/classes/dev/kubeheadroom/demo/"));
  }

  private static List<String> classPath() {
    return List.of(image.text("app/jib-classpath-file").strip().split(":"));
  }
}
