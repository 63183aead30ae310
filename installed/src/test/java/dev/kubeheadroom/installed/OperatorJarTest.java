package dev.kubeheadroom.installed;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.kafka.embedded.EmbeddedKafka;
import dev.kubeheadroom.kubedouble.ApiServerDouble;
import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import java.util.spi.ToolProvider;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import kafka.server.KafkaRaftServer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The operator jar ({@code cli/target/headroom-operator.jar} and its {@code lib/}: the class path
 * Jib puts in the image, and what the installed tier runs) carries what the stages and
 * {@code headroom run} need, and no code that only tests, the demo and {@code ./headroom}'s
 * embedded broker need.
 */
class OperatorJarTest {
  /**
   * Jar entries of code that must not ship: tests, {@code ./headroom demo} and
   * {@code ./headroom}'s embedded broker only.
   */
  static final List<String> NOT_SHIPPED = List.of(
      "dev/kubeheadroom/kafka/embedded/", // ./headroom's embedded broker
      "kafka/server/", // the Kafka broker (kafka_2.13 and the kafka-server jars)
      "kafka/log/",
      "kafka/cluster/",
      "org/apache/kafka/raft/", // the broker's KRaft quorum
      "org/apache/kafka/metadata/", // the controller's metadata image
      "scala/", // the broker's language runtime
      "dev/kubeheadroom/kubedouble/", // the API server and kubelet double
      "dev/kubeheadroom/demo/", // headroom demo
      "dev/kubeheadroom/launcher/", // ./headroom's command line
      "dev/kubeheadroom/testkit/",
      "io/fabric8/mockwebserver/", // fabric8's mock web server, under the double
      "io/fabric8/kubernetes/client/server/mock/", // fabric8's Kubernetes mock server
      "org/apache/kafka/streams/TopologyTestDriver", // kafka-streams-test-utils
      "org/apache/kafka/streams/TestInputTopic",
      "org/junit/",
      "org/assertj/",
      "org/testcontainers/");

  static final Path JAR = PodPlanner.CLI_JAR;
  static final Path LIB = JAR.resolveSibling("lib");
  static List<Path> classPath;

  @BeforeAll
  static void readTheManifest() throws IOException {
    assertThat(JAR).as("build it with mvn -pl cli -am package").isRegularFile();
    try (JarFile jar = new JarFile(JAR.toFile())) {
      Manifest manifest = jar.getManifest();
      assertThat(manifest.getMainAttributes().getValue("Main-Class")).isEqualTo("dev.kubeheadroom.cli.Main");
      classPath = Stream.of(manifest.getMainAttributes().getValue("Class-Path").trim().split("\\s+"))
          .map(entry -> JAR.resolveSibling(entry)).toList();
    }
  }

  @Test
  void libHoldsExactlyTheJarsTheManifestNames() throws IOException {
    // the image copies lib/ whole: a jar there that the manifest does not name would ship unused
    Set<String> named = classPath.stream().map(p -> p.getFileName().toString()).collect(Collectors.toSet());
    try (Stream<Path> files = Files.list(LIB)) {
      Set<String> present = files.map(p -> p.getFileName().toString()).collect(Collectors.toSet());
      assertThat(present).isEqualTo(named);
    }
  }

  @Test
  void noJarCarriesTestOnlyCode() throws IOException {
    List<Path> shipped = new ArrayList<>(classPath);
    shipped.add(JAR);
    List<String> found = new ArrayList<>();
    int classes = 0;
    for (Path jar : shipped) {
      List<String> entries = entries(jar);
      classes += entries.size();
      entries.stream().filter(OperatorJarTest::notShipped).map(e -> jar.getFileName() + "!" + e).forEach(found::add);
    }
    assertThat(found).as("code that must not ship, in the operator jar's class path").isEmpty();
    assertThat(classes).as("entries scanned").isGreaterThan(10_000);
    assertThat(shipped).extracting(p -> p.getFileName().toString())
        .noneMatch(n -> n.startsWith("headroom-kube-double") || n.startsWith("headroom-demo")
            || n.startsWith("kubernetes-server-mock") || n.startsWith("mockwebserver")
            || n.startsWith("kafka-streams-test-utils") || n.startsWith("headroom-embedded-kafka")
            || n.startsWith("kafka_2.13") || n.startsWith("kafka-server") || n.startsWith("scala-"));
  }

  @Test
  void theScanFindsTheApiDoubleAndTheBrokerWhereTheyAre() throws IOException, URISyntaxException {
    // the same scan over this test's own class path entries for the double, the embedded broker,
    // the Kafka broker and Scala must flag each
    for (Class<?> type : List.of(ApiServerDouble.class, EmbeddedKafka.class, KafkaRaftServer.class, scala.Option.class)) {
      assertThat(entries(codeSource(type))).as(type.getName()).anyMatch(OperatorJarTest::notShipped);
    }
  }

  static Path codeSource(Class<?> type) throws URISyntaxException {
    return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
  }

  @Test
  void everyClassHeadroomCodeReferencesIsShipped() {
    // jdeps resolves every class our jars reference (the stages and the tools) against the
    // shipped class path; third-party jars' optional extras are not checked
    List<String> args = new ArrayList<>(List.of("--missing-deps", "--multi-release", "17", "--class-path",
        classPath.stream().map(Path::toString).collect(Collectors.joining(File.pathSeparator)),
        JAR.toString()));
    classPath.stream().filter(p -> p.getFileName().toString().startsWith("headroom-")).map(Path::toString)
        .forEach(args::add);
    assertThat(args).as("the stages' modules are shipped").anyMatch(a -> a.contains("headroom-ingest"))
        .anyMatch(a -> a.contains("headroom-topology")).anyMatch(a -> a.contains("headroom-actuator"))
        .anyMatch(a -> a.contains("headroom-webhook")).noneMatch(a -> a.contains("headroom-embedded-kafka"));
    ToolProvider jdeps = ToolProvider.findFirst("jdeps").orElseThrow();
    StringWriter out = new StringWriter();
    int exit = jdeps.run(new PrintWriter(out), new PrintWriter(out), args.toArray(String[]::new));
    assertThat(exit).as(out.toString()).isZero();
    assertThat(out.toString()).as("classes referenced but not shipped").isBlank();
  }

  @Test
  void startsWithEveryStageAndWithoutTheDemo() throws Exception {
    // one JVM, as the image's entrypoint starts it: picocli builds every subcommand's model first
    Result demo = java("demo");
    assertThat(demo.exit()).as(demo.output()).isEqualTo(2); // picocli: an unknown subcommand
    assertThat(demo.output()).contains("Unmatched argument at index 0: 'demo'");
    assertThat(demo.output().lines().map(String::strip).map(l -> l.split(" ")[0]))
        .contains("run", "ingest", "topology", "actuator", "webhook", "preflight", "audit", "explain")
        .doesNotContain("demo");
  }

  private record Result(int exit, String output) {}

  private static Result java(String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of(
        ProcessHandle.current().info().command().orElse("java"), "-jar", JAR.toString()));
    Collections.addAll(command, args);
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    return new Result(p.exitValue(), output);
  }

  static boolean notShipped(String entry) {
    return NOT_SHIPPED.stream().anyMatch(entry::startsWith);
  }

  /** The entries of a jar, or the files under a classes directory (a reactor build's test class path). */
  static List<String> entries(Path jarOrDir) throws IOException {
    if (Files.isDirectory(jarOrDir)) {
      try (Stream<Path> files = Files.walk(jarOrDir)) {
        return files.filter(Files::isRegularFile).map(f -> jarOrDir.relativize(f).toString().replace('\\', '/'))
            .toList();
      }
    }
    try (JarFile jar = new JarFile(jarOrDir.toFile())) {
      return jar.stream().map(ZipEntry::getName).toList();
    }
  }
}
