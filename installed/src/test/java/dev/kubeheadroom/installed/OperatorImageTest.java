package dev.kubeheadroom.installed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The operator image Jib builds in module cli's package phase ({@code cli/target/headroom-image.tar},
 * OCI layout), opened as a tarball: who it runs as, what it runs, that its class path is the
 * operator jar's runtime class path with no class of the test doubles, the demo, the Kafka broker or
 * Scala, that it carries its own Java runtime and C libraries, and that its entrypoint starts
 * {@code headroom run}'s code from nothing but the image's files (a chroot into the unpacked layers).
 */
class OperatorImageTest {
  static final Path IMAGE = PodPlanner.CLI_JAR.resolveSibling("headroom-image.tar");
  /** Written by cli/src/image/ImageRoot.java when the build machine cannot make the image's runtime. */
  static final Path NO_RUNTIME = PodPlanner.CLI_JAR.resolveSibling("image-root.skipped");
  static final Path PLUGIN = Chart.DEPLOY.resolve("kubectl-headroom");
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
    // the JVM looks the user up (user.name, user.home): it has a name, and no home to write to
    assertThat(image.text("etc/passwd")).contains("headroom:x:10001:10001:headroom:/nonexistent:/sbin/nologin");
    assertThat(image.text("etc/group")).contains("headroom:x:10001:");
  }

  @Test
  void theEntrypointRunsTheOperatorsMainOnTheImagesClassPath() {
    assertThat(image.entrypoint())
        .containsExactly("/opt/java/bin/java", "-cp", "@/app/jib-classpath-file", "dev.kubeheadroom.cli.Main");
    assertThat(image.config().path("config").path("Env").toString())
        .contains("JAVA_HOME=/opt/java").contains("PATH=/opt/java/bin");
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
  void noTestDoubleDemoOrBrokerShips() {
    assertThat(classPath()).noneMatch(e -> e.contains("kube-double") || e.contains("mockwebserver")
        || e.contains("kafka-streams-test-utils") || e.contains("headroom-demo")
        || e.contains("testkit") || e.contains("slf4j-simple") || e.contains("junit")
        || e.contains("embedded-kafka") || e.contains("kafka_2.13") || e.contains("scala-"));
  }

  @Test
  void noClassOfTheTestsTheDemoTheBrokerOrScalaIsOnTheClassPath() throws IOException {
    // by class, whatever jar would bring it: every entry of every class path element in the image
    List<String> found = new ArrayList<>();
    int classes = 0;
    for (String element : classPath()) {
      List<String> entries = element.endsWith(".jar") ? jarEntries(element.substring(1))
          : image.files().keySet().stream().filter(p -> p.startsWith(element.substring(1) + "/"))
              .map(p -> p.substring(element.length())).toList();
      classes += (int) entries.stream().filter(e -> e.endsWith(".class")).count();
      entries.stream().filter(OperatorJarTest::notShipped).map(e -> element + "!" + e).forEach(found::add);
    }
    assertThat(found).as("classes that must not ship, in the image's class path").isEmpty();
    assertThat(classes).as("classes scanned").isGreaterThan(10_000);
  }

  @Test
  void theImageCarriesAJlinkedRuntimeAndTheCLibrariesItLoads() {
    assumeRuntime();
    assertThat(image.modes()).containsEntry("opt/java/bin/java", 0755).containsEntry("lib64/ld-linux-x86-64.so.2", 0755);
    String release = image.text("opt/java/release");
    assertThat(release).contains("JAVA_VERSION=\"17.");
    // TLS with EC certificates, JMX's platform beans, Kafka's Kerberos login: not found by jdeps alone
    assertThat(release).contains("java.base").contains("jdk.crypto.ec").contains("jdk.management")
        .contains("jdk.security.auth").contains("java.naming");
    // what ldd lists for the runtime (glibc, zlib, libstdc++ for libjvm) and RocksDB's JNI library (librt)
    assertThat(image.files()).containsKeys("lib/x86_64-linux-gnu/libc.so.6", "lib/x86_64-linux-gnu/libz.so.1",
        "lib/x86_64-linux-gnu/libstdc++.so.6", "lib/x86_64-linux-gnu/libgcc_s.so.1", "lib/x86_64-linux-gnu/librt.so.1");
    // no desktop natives, so none of X11, fonts or sound
    assertThat(image.files().keySet()).noneMatch(p -> p.contains("libX11") || p.contains("libawt_xawt")
        || p.contains("libfreetype") || p.contains("libasound"));
  }

  @Test
  void theImagesOwnRuntimeStartsHeadroomRunAsItsUser(@TempDir Path root) throws Exception {
    assumeRuntime();
    assumeTrue("root".equals(System.getProperty("user.name")),
        "chroot into the unpacked image needs root; this test runs as " + System.getProperty("user.name"));
    Path unshare = tool("unshare");
    Path chroot = tool("chroot");
    assumeMountNamespaces(unshare, root);
    image.unpack(root);

    Run help = run(unshare, chroot, root, "run", "--help");
    assertThat(help.code()).as(help.output()).isZero();
    assertThat(help.output()).contains("Usage: headroom run").contains("Runs all stages in one process");

    // no embedded broker in the image: run given no Kafka is a usage error in one line
    Run noKafka = run(unshare, chroot, root, "run", "--kube-api-url=https://127.0.0.1:9");
    assertThat(noKafka.code()).as(noKafka.output()).isEqualTo(2);
    assertThat(noKafka.output().strip()).startsWith("headroom run: no Kafka: give --kafka-bootstrap-servers")
        .contains("the operator image has no embedded broker").doesNotContain("\n");

    // fabric8, its Vert.x HTTP client and TLS on the image's runtime: a refused connection is
    // "unavailable" (exit 4) with a one-line message, not a missing class or library
    Run preflight = run(unshare, chroot, root, "preflight", "--kube-api-url=https://127.0.0.1:9");
    assertThat(preflight.code()).as(preflight.output()).isEqualTo(4);
    assertThat(preflight.output().strip().lines().reduce((a, b) -> b).orElse(""))
        .isEqualTo("headroom preflight: cannot reach the Kubernetes API server at https://127.0.0.1:9/ (Connection refused)");
    assertThat(preflight.output()).doesNotContain("UnsatisfiedLinkError", "NoClassDefFoundError", "ClassNotFoundException");
  }

  @Test
  void theKubectlPluginRunsTheImagesEntrypoint() throws IOException {
    String script = Files.readString(PLUGIN);
    Matcher command = Pattern.compile("(?m)^image_command=\"([^\"]+)\"$").matcher(script);
    assertThat(command.find()).as("image_command=... in " + PLUGIN).isTrue();
    List<String> plugin = List.of(command.group(1).split(" "));
    List<String> expected = new ArrayList<>(image.entrypoint());
    expected.add(1, "-Xmx256m");
    assertThat(plugin).isEqualTo(expected);
    assertThat(image.files()).containsKey("app/classes/" + plugin.get(4).replace('.', '/') + ".class");
    assertThat(image.files()).containsKey(plugin.get(3).substring("@/".length()));
    if (!Files.exists(NO_RUNTIME)) {
      assertThat(image.files()).containsKey(plugin.get(0).substring(1));
    }
  }

  private record Run(int code, String output) {}

  /**
   * The image's entrypoint with {@code args} and the image's Env only, as the image's user, in a
   * chroot into {@code root} with a /proc of its own (glibc resolves the JDK's {@code $ORIGIN}
   * RPATH through /proc/self/exe) that ends with the process: what a container runtime provides.
   */
  private static Run run(Path unshare, Path chroot, Path root, String... args) throws Exception {
    JsonNode config = image.config().path("config");
    Files.createDirectories(root.resolve("proc"));
    List<String> command = new ArrayList<>(List.of(unshare.toString(), "--mount", "--pid", "--fork",
        "--mount-proc=" + root.resolve("proc"), chroot.toString(), "--userspec=" + config.path("User").asText(),
        root.toString()));
    command.addAll(image.entrypoint());
    command.addAll(List.of(args));
    Path log = Files.createTempFile("image-run", ".log");
    ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
    pb.environment().clear();
    config.path("Env").forEach(env -> pb.environment().put(env.asText().split("=", 2)[0], env.asText().split("=", 2)[1]));
    Process process = pb.start();
    try {
      boolean ended = process.waitFor(120, TimeUnit.SECONDS); // seconds when idle; ~45 s seen at load average 45
      String output = Files.readString(log);
      assertThat(ended).as("still running after 120 s: " + output).isTrue();
      return new Run(process.exitValue(), output);
    } finally {
      process.destroyForcibly();
      Files.delete(log);
    }
  }

  /** A container without CAP_SYS_ADMIN cannot mount the /proc the run needs: skip there, saying so. */
  private static void assumeMountNamespaces(Path unshare, Path root) throws Exception {
    Path proc = Files.createDirectories(root.resolve("proc"));
    Process probe = new ProcessBuilder(unshare.toString(), "--mount", "--pid", "--fork", "--mount-proc=" + proc, "true")
        .redirectErrorStream(true).start();
    String output = new String(probe.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assumeTrue(probe.waitFor() == 0, () -> "cannot mount a /proc in a new mount namespace here: " + output.strip());
  }

  /** util-linux's and coreutils' tools, on every Debian; the test skips without them. */
  private static Path tool(String name) {
    Path found = Stream.of("/usr/bin", "/usr/sbin", "/bin", "/sbin").map(dir -> Path.of(dir, name))
        .filter(Files::isExecutable).findFirst().orElse(null);
    assumeTrue(found != null, "no " + name + " in /usr/bin, /usr/sbin, /bin or /sbin");
    return found;
  }

  private static void assumeRuntime() {
    assumeFalse(Files.exists(NO_RUNTIME), () -> "the image has no Java runtime: " + read(NO_RUNTIME));
  }

  private static String read(Path file) {
    try {
      return Files.readString(file).strip();
    } catch (IOException e) {
      return e.toString();
    }
  }

  /** The entries of a jar in the image. */
  private static List<String> jarEntries(String path) throws IOException {
    List<String> entries = new ArrayList<>();
    try (ZipInputStream jar = new ZipInputStream(new ByteArrayInputStream(image.files().get(path)))) {
      for (ZipEntry e = jar.getNextEntry(); e != null; e = jar.getNextEntry()) {
        entries.add(e.getName());
      }
    }
    return entries;
  }

  private static List<String> classPath() {
    return List.of(image.text("app/jib-classpath-file").strip().split(":"));
  }
}
