package dev.kubeheadroom.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.kubeheadroom.kubedouble.ApiServerDouble;
import dev.kubeheadroom.schemas.ClusterConfig;
import dev.kubeheadroom.schemas.ContainerKind;
import dev.kubeheadroom.schemas.ContainerSnapshot;
import dev.kubeheadroom.schemas.HeadroomKeys;
import dev.kubeheadroom.schemas.HeadroomSerdes;
import dev.kubeheadroom.schemas.JsonCodec;
import dev.kubeheadroom.schemas.NamespaceInfo;
import dev.kubeheadroom.schemas.NodeEvent;
import dev.kubeheadroom.schemas.NodeSnapshot;
import dev.kubeheadroom.schemas.PodSnapshot;
import dev.kubeheadroom.schemas.ResizeStatus;
import dev.kubeheadroom.schemas.TopicBootstrap;
import dev.kubeheadroom.schemas.TopicLayout;
import dev.kubeheadroom.schemas.Topics;
import dev.kubeheadroom.testkit.KafkaBroker;
import dev.kubeheadroom.testkit.TestKafka;
import dev.kubeheadroom.testkit.WithKafka;
import dev.kubeheadroom.topology.TopologyListener;
import dev.kubeheadroom.topology.TopologyRunner;
import dev.kubeheadroom.topology.TopologySettings;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.HttpURLConnection;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Runs every {@code headroom} command that {@code README.md} and {@code docs/*.md} show, so the
 * docs cannot drift from the launcher.
 *
 * <p><b>What counts as a command.</b> Lines of fenced code blocks tagged {@code sh}, {@code bash},
 * {@code shell} or {@code console} (backslash continuations joined, a leading {@code $ } and a
 * trailing {@code # comment} dropped) whose first word is {@code ./headroom} or {@code headroom},
 * or that start {@code kubectl headroom}. Other lines ({@code kubectl get …}, {@code helm},
 * {@code mvn}, {@code export}) are not Headroom's and are ignored. A headroom line may read stdin
 * from a file ({@code < FILE}); pipes and other redirections are refused, to keep doc lines
 * runnable as written.
 *
 * <p><b>Markers.</b> {@code <!-- not-run: reason -->} right before a block (blank lines allowed)
 * means its commands are not executed; they are still parsed, so a subcommand or flag that does
 * not exist fails the test, and they are counted and listed. {@code <!-- expected-output -->}
 * before a {@code text} block makes that block the exact expected stdout of the file's previous
 * command.
 *
 * <p><b>How each command runs</b> (in-process, through {@link Main#commandLine}):
 *
 * <ul>
 *   <li>{@code --help} / {@code help}, {@code policy < FILE}, {@code simulate}: as written, exit 0.
 *   <li>{@code demo}: with {@code --speed 20} (a larger given speed is kept) and, when the doc
 *       gives no {@code --scenario}, {@code --scenario docs/examples/two-nodes.jsonl}, so it takes
 *       seconds instead of the built-in scenario's minutes; exit 0.
 *   <li>{@code run}, {@code ingest}, {@code topology}, {@code actuator}, {@code webhook}: started in
 *       a thread against the test's Kafka broker and an in-process API server double
 *       ({@link ApiServerDouble}), until the command has started its stages (its thread waits in
 *       {@code StageRuntime.runUntilStopped}) and {@code /readyz} answers 200, then stopped by
 *       interrupting the thread (the stages otherwise stop only on SIGTERM).
 *   <li>{@code audit}, {@code explain}: against a history this test records with a real
 *       exactly-once topology (as {@code AuditCommandTest} does): node {@code n1} (16 cores),
 *       pods {@code team-a/web-1} (2 cores) and {@code team-a/web-2} (6 cores). Docs must name
 *       those pods and that node. Exit 0.
 *   <li>{@code kubectl headroom ARGS}: {@code deploy/kubectl-headroom} is run with {@code HEADROOM}
 *       pointing at a stub launcher that echoes its arguments (they must arrive unchanged), then
 *       {@code headroom ARGS} runs in-process as above. {@code kubectl headroom --help} runs the
 *       plugin's own help.
 *   <li>{@code preflight}: against the API server double ({@code --kube-api-url}; kubeconfig and
 *       context dropped), which holds no HeadroomConfig: warnings, no failure. Exit 0.
 * </ul>
 *
 * <p><b>Substitutions</b> (applied to the stage, audit and explain commands; {@code --x=v} and
 * {@code --x v} are treated alike; a relative path that exists under the repository root is made
 * absolute for every command):
 *
 * <ul>
 *   <li>{@code --kafka-bootstrap-servers} / {@code --bootstrap-servers}: the test broker (added when
 *       absent, so no embedded broker starts); {@code --kafka-client-properties},
 *       {@code --kafka-property}: dropped (the test broker is plaintext, no auth).
 *   <li>{@code --topic-prefix}, {@code --application-id}, {@code --actuator-group-id}: unique per
 *       command (audit/explain: the recorded history's prefix); {@code --topic-replication-factor}
 *       1; {@code --topic-partitions} 2.
 *   <li>{@code --kubeconfig}, {@code --kube-context}: dropped; {@code --kube-api-url}: the API
 *       server double (added for the commands that talk to Kubernetes).
 *   <li>{@code --health-port}: a free port the test probes; {@code --metrics-port 0};
 *       {@code --metrics-secure false}; {@code --metrics-cert-path}, {@code --webhook-cert-dir}:
 *       dropped (self-signed); {@code --webhook-port 0}; {@code --leader-election-lease}: unique per
 *       command (stopped stages do not wait out each other's Lease).
 *   <li>{@code --data-dir}, {@code --state-dir}: fresh temporary directories (added when the
 *       command has the option).
 *   <li>{@code --at}: a moment inside the recorded history; {@code --from}: 2020-01-01;
 *       {@code --to}: now.
 * </ul>
 */
@WithKafka
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DocsCommandsTest {
  static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
  /** Subcommands documented but not built yet (none now). */
  static final Set<String> NOT_ON_THIS_BRANCH = Set.of();
  static final Set<String> SHELL_TAGS = Set.of("sh", "bash", "shell", "console");
  static final Set<String> STAGES = Set.of("run", "ingest", "topology", "actuator", "webhook");
  static final Duration READY_TIMEOUT = Duration.ofSeconds(90);

  @TempDir static Path temp;
  KafkaBroker kafka;
  ApiServerDouble api;
  Topics history;
  Instant historyMoment;

  /** One command line a doc shows. */
  record DocCommand(String where, String text, List<String> args, String stdinFile, boolean viaKubectl,
      String notRunReason) {}

  /** A doc's expected stdout for the command before it. */
  record Expected(DocCommand command, String output) {}

  final List<DocCommand> commands = new ArrayList<>();
  final List<Expected> expectations = new ArrayList<>();

  @BeforeAll
  void scanDocsAndRecordAHistory(KafkaBroker kafka) throws Exception {
    this.kafka = kafka;
    List<Path> docs = new ArrayList<>();
    docs.add(ROOT.resolve("README.md"));
    try (Stream<Path> files = Files.list(ROOT.resolve("docs"))) {
      files.filter(p -> p.toString().endsWith(".md")).sorted().forEach(docs::add);
    }
    for (Path doc : docs) {
      scan(doc);
    }
    api = ApiServerDouble.start();
    recordHistory();
  }

  @AfterAll
  void closeApiServer() {
    if (api != null) {
      api.close();
    }
  }

  // ---------------------------------------------------------------------------------------------
  // The tests

  @Test
  void everyDocumentedCommandRuns() throws Exception {
    List<DocCommand> notRun = commands.stream().filter(c -> c.notRunReason() != null).toList();
    System.out.println("DocsCommandsTest: " + commands.size() + " headroom command lines, " + notRun.size()
        + " marked not-run:");
    notRun.forEach(c -> System.out.println("  not run: " + c.where() + ": " + c.text() + "  (" + c.notRunReason() + ")"));

    // Every line (run or not) must name an existing subcommand and existing flags.
    for (DocCommand c : commands) {
      if (NOT_ON_THIS_BRANCH.contains(subcommand(c.args()))) {
        assertThat(c.notRunReason()).as("%s: %s is not on this branch; mark it not-run", c.where(), c.text())
            .isNotNull();
        continue;
      }
      try {
        Main.commandLine().parseArgs(c.args().toArray(String[]::new));
      } catch (CommandLine.ParameterException e) {
        fail(c.where() + ": `" + c.text() + "` does not parse: " + e.getMessage());
      }
    }

    Map<String, List<DocCommand>> distinct = new LinkedHashMap<>();
    for (DocCommand c : commands) {
      if (c.notRunReason() == null) {
        distinct.computeIfAbsent((c.viaKubectl() ? "kubectl " : "") + c.args() + " < " + c.stdinFile(),
            k -> new ArrayList<>()).add(c);
      }
    }
    for (List<DocCommand> same : distinct.values()) {
      DocCommand c = same.get(0);
      long started = System.nanoTime();
      CliRun result = execute(c);
      System.out.printf("DocsCommandsTest: ran %-70s %5.1f s (%s)%n", c.text(),
          (System.nanoTime() - started) / 1e9, same.stream().map(DocCommand::where).collect(Collectors.joining(", ")));
      if (result == null) {
        continue; // a stage, checked by its readiness
      }
      assertThat(result.exitCode()).as("%s: `%s` exit code; stderr:%n%s", c.where(), c.text(), result.stderr())
          .isZero();
      for (Expected e : expectations) {
        if (same.contains(e.command())) {
          assertThat(normalize(result.stdout())).as("%s: output of `%s`", c.where(), c.text())
              .isEqualTo(normalize(e.output()));
        }
      }
    }
  }

  @Test
  void everySubcommandIsDocumented() {
    Set<String> shown = commands.stream().map(c -> subcommand(c.args())).collect(Collectors.toCollection(TreeSet::new));
    Set<String> all = new TreeSet<>(Main.commandLine().getSubcommands().keySet());
    all.remove("help");
    all.addAll(NOT_ON_THIS_BRANCH);
    assertThat(shown).containsAll(all);
  }

  @Test
  void outputExpectationsFollowACommand() {
    assertThat(expectations).as("at least the reserved-headroom table").isNotEmpty();
  }

  // ---------------------------------------------------------------------------------------------
  // Running one command

  private CliRun execute(DocCommand c) throws Exception {
    List<String> args = new ArrayList<>(c.args());
    if (c.viaKubectl()) {
      checkPluginForwards(args);
      if (args.isEmpty() || args.get(0).equals("--help") || args.get(0).equals("-h")) {
        return runPlugin(args, Map.of());
      }
    }
    String sub = subcommand(args);
    boolean help = args.isEmpty() || args.contains("--help") || args.contains("-h") || sub.equals("help");
    args = resolvePaths(args);
    String stdin = c.stdinFile() == null ? "" : Files.readString(ROOT.resolve(c.stdinFile()));
    if (help || sub.equals("policy") || sub.equals("simulate")) {
      CliRun r = CliRun.withStdin(stdin, args.toArray(String[]::new));
      if (help) {
        assertThat(r.stdout()).as(c.text()).contains("Usage:");
      }
      return r;
    }
    if (sub.equals("demo")) {
      return CliRun.run(demoArgs(args).toArray(String[]::new));
    }
    if (sub.equals("audit") || sub.equals("explain")) {
      CliRun r = CliRun.run(historyArgs(args).toArray(String[]::new));
      assertThat(r.stdout()).as(c.text()).isNotBlank();
      return r;
    }
    if (STAGES.contains(sub)) {
      runStage(c, stageArgs(sub, args));
      return null;
    }
    if (sub.equals("preflight")) {
      Args a = new Args(args);
      a.remove("--kubeconfig");
      a.remove("--kube-context");
      a.set("--kube-api-url", api.url());
      CliRun r = CliRun.run(a.list().toArray(String[]::new));
      assertThat(r.stdout()).as(c.text()).containsPattern("\\d+ passed, \\d+ warnings?, 0 failed");
      return r;
    }
    throw new AssertionError(c.where() + ": no rule to run `" + c.text() + "`");
  }

  /** demo: at least --speed 20, and the short two-node scenario unless the doc names one. */
  static List<String> demoArgs(List<String> args) {
    Args a = new Args(args);
    String speed = a.value("--speed");
    if (speed == null || Double.parseDouble(speed) < 20) {
      a.set("--speed", "20");
    }
    if (a.value("--scenario") == null) {
      a.set("--scenario", ROOT.resolve("docs/examples/two-nodes.jsonl").toString());
    }
    return a.list();
  }

  private List<String> historyArgs(List<String> args) {
    Args a = kafkaArgs(new Args(args));
    a.set("--topic-prefix", history.prefix());
    a.replace("--at", historyMoment.toString());
    a.replace("--from", "2020-01-01T00:00:00Z");
    a.replace("--to", Instant.now().toString());
    return a.list();
  }

  private Args kafkaArgs(Args a) {
    a.remove("--bootstrap-servers");
    a.set("--kafka-bootstrap-servers", kafka.bootstrapServers());
    a.removeAll("--kafka-client-properties");
    a.removeAll("--kafka-property");
    a.replaceOrAddIfKnown("--data-dir", newDir("data"));
    return a;
  }

  private List<String> stageArgs(String sub, List<String> args) throws IOException {
    CommandLine.Model.CommandSpec spec = Main.commandLine().getSubcommands().get(sub).getCommandSpec();
    Args a = kafkaArgs(new Args(args, spec));
    a.set("--topic-prefix", TestKafka.uniqueName("docs") + ".");
    a.replaceOrAddIfKnown("--application-id", TestKafka.uniqueName("docs-app"));
    a.replaceOrAddIfKnown("--actuator-group-id", TestKafka.uniqueName("docs-actuator"));
    a.set("--topic-replication-factor", "1");
    a.set("--topic-partitions", "2");
    a.removeAll("--kubeconfig");
    a.removeAll("--kube-context");
    a.replaceOrAddIfKnown("--kube-api-url", api.url());
    a.set("--health-port", Integer.toString(freePort()));
    a.set("--metrics-port", "0");
    a.set("--metrics-secure", "false");
    a.removeAll("--metrics-cert-path");
    a.removeAll("--webhook-cert-dir");
    a.replaceOrAddIfKnown("--webhook-port", "0");
    a.replaceOrAddIfKnown("--leader-election-lease", TestKafka.uniqueName("docs-lease"));
    a.replaceOrAddIfKnown("--state-dir", newDir("state"));
    return a.list();
  }

  /** Starts a stage command in a thread, waits for /readyz 200, then stops it. */
  private void runStage(DocCommand c, List<String> args) throws Exception {
    int healthPort = Integer.parseInt(new Args(args).value("--health-port"));
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    AtomicReference<Integer> exit = new AtomicReference<>();
    Thread stage = new Thread(() -> {
      CommandLine cli = Main.commandLine(new ByteArrayInputStream(new byte[0]));
      cli.setOut(new PrintWriter(out, true));
      cli.setErr(new PrintWriter(err, true));
      exit.set(cli.execute(args.toArray(String[]::new)));
    }, "docs-" + subcommand(args));
    stage.start();
    try {
      long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
      // Ready once every stage has started (/readyz says "starting" until then) and is ready.
      while (!waitingForStop(stage) || readyz(healthPort) != 200) {
        if (!stage.isAlive()) {
          fail(c.where() + ": `" + c.text() + "` ended with " + exit.get() + " before it was ready: " + err);
        }
        if (System.nanoTime() > deadline) {
          fail(c.where() + ": `" + c.text() + "` not ready within " + READY_TIMEOUT + " (ran as " + args + ")");
        }
        TimeUnit.MILLISECONDS.sleep(200); // polling an HTTP probe: there is nothing to wait on
      }
    } finally {
      stage.interrupt(); // the stage's wait for SIGTERM ends; it closes every resource it owns
      stage.join(TimeUnit.SECONDS.toMillis(60));
    }
    assertThat(stage.isAlive()).as("%s still running after stop", c.text()).isFalse();
  }

  private static boolean waitingForStop(Thread stage) {
    return Stream.of(stage.getStackTrace()).anyMatch(f -> f.getClassName().equals(StageRuntime.class.getName())
        && f.getMethodName().equals("runUntilStopped"));
  }

  private static int readyz(int port) {
    try {
      HttpURLConnection http = (HttpURLConnection) URI.create("http://127.0.0.1:" + port + "/readyz").toURL()
          .openConnection();
      http.setConnectTimeout(500);
      http.setReadTimeout(1000);
      try {
        return http.getResponseCode();
      } finally {
        http.disconnect();
      }
    } catch (IOException e) {
      return -1;
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  private String newDir(String base) {
    try {
      return Files.createTempDirectory(temp, base).toString();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  // ---------------------------------------------------------------------------------------------
  // The kubectl plugin

  /** The plugin must hand its arguments to the launcher unchanged. */
  private void checkPluginForwards(List<String> args) throws Exception {
    if (args.isEmpty() || args.get(0).equals("--help") || args.get(0).equals("-h")) {
      return;
    }
    Path stub = temp.resolve("stub-headroom");
    if (!Files.exists(stub)) {
      Files.writeString(stub, "#!/usr/bin/env bash\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done\n");
      Files.setPosixFilePermissions(stub, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
    CliRun r = runPlugin(args, Map.of("HEADROOM", stub.toString()));
    assertThat(r.exitCode()).as(r.stderr()).isZero();
    assertThat(r.stdout().lines().toList()).as("kubectl headroom %s forwards", args).isEqualTo(args);
  }

  private static CliRun runPlugin(List<String> args, Map<String, String> env) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(ROOT.resolve("deploy/kubectl-headroom").toString());
    command.addAll(args);
    ProcessBuilder pb = new ProcessBuilder(command);
    pb.environment().putAll(env);
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
    return new CliRun(p.exitValue(), out, err);
  }

  // ---------------------------------------------------------------------------------------------
  // The recorded history for audit and explain (as AuditCommandTest)

  static PodSnapshot pod(String name, long requestMilli, long limitMilli) {
    return new PodSnapshot("uid-" + name, "team-a", name, "n1", "Running", "Burstable", "1", 1, null, 0,
        null, false, List.of(), List.of(new ContainerSnapshot("app", ContainerKind.APP, requestMilli,
        limitMilli, false, false)), ResizeStatus.NONE);
  }

  private void recordHistory() throws Exception {
    history = new Topics(TestKafka.uniqueName("docs-history") + ".");
    try (Admin admin = kafka.admin()) {
      TopicBootstrap.ensure(admin, history, TopicLayout.singleBroker(2), Duration.ofSeconds(30));
    }
    TopologyRunner runner = TopologyRunner.start(new TopologyRunner.Options(TestKafka.uniqueName("docs-history-app"),
        kafka.bootstrapServers(), temp.resolve("history-state"), Map.of("commit.interval.ms", "100")),
        TopologySettings.defaults(history), TopologyListener.NONE);
    try (runner; KafkaProducer<String, byte[]> p = kafka.producer(new StringSerializer(), new ByteArraySerializer())) {
      assertThat(runner.awaitRunning(Duration.ofSeconds(60))).isTrue();
      p.send(new ProducerRecord<>(history.config(), HeadroomKeys.CONFIG_NAME,
          JsonCodec.encode(ClusterConfig.DEFAULTS.withDryRun(false))));
      p.send(new ProducerRecord<>(history.namespaces(), "team-a", JsonCodec.encode(new NamespaceInfo("team-a",
          Map.of(HeadroomKeys.MODE_LABEL, HeadroomKeys.MANAGED), 0))));
      for (NodeEvent e : List.<NodeEvent>of(new NodeSnapshot("n1", 16000, "linux", false, Map.of()),
          pod("web-1", 2000, 0), pod("web-2", 6000, 0))) {
        String topic = e instanceof NodeSnapshot ? history.nodes() : history.pods();
        p.send(new ProducerRecord<>(topic, e.node(), JsonCodec.encode(e)));
      }
      p.flush();
      kafka.consumeUntil(history.decisions(), new StringDeserializer(),
          HeadroomSerdes.decisions().deserializer(), rs -> !rs.isEmpty(), Duration.ofSeconds(60));
      historyMoment = Instant.now();
      p.send(new ProducerRecord<>(history.pods(), "n1", JsonCodec.encode(pod("web-1", 2000, 4000)))).get();
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Reading the docs

  private static final Pattern FENCE = Pattern.compile("^\\s*```\\s*([\\w-]*).*$");
  private static final Pattern NOT_RUN = Pattern.compile("<!--\\s*not-run:\\s*(.*?)\\s*-->");
  private static final Pattern EXPECTED = Pattern.compile("<!--\\s*expected-output\\s*-->");

  private void scan(Path doc) throws IOException {
    List<String> lines = Files.readAllLines(doc);
    String name = ROOT.relativize(doc).toString();
    String pendingNotRun = null;
    boolean pendingExpected = false;
    DocCommand lastCommand = null;
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      Matcher notRun = NOT_RUN.matcher(line);
      if (notRun.find()) {
        pendingNotRun = notRun.group(1);
        continue;
      }
      if (EXPECTED.matcher(line).find()) {
        pendingExpected = true;
        continue;
      }
      Matcher fence = FENCE.matcher(line);
      if (!fence.matches()) {
        if (!line.isBlank()) {
          pendingNotRun = null; // a marker applies only to the block right after it
          pendingExpected = false;
        }
        continue;
      }
      String tag = fence.group(1);
      int start = i + 1;
      int end = start;
      while (end < lines.size() && !lines.get(end).strip().startsWith("```")) {
        end++;
      }
      List<String> body = lines.subList(start, Math.min(end, lines.size()));
      if (pendingExpected) {
        assertThat(lastCommand).as("%s:%d: expected-output with no command before it", name, i + 1).isNotNull();
        expectations.add(new Expected(lastCommand, String.join("\n", body)));
      } else if (SHELL_TAGS.contains(tag)) {
        for (DocCommand c : commandsIn(name, start, body, pendingNotRun)) {
          commands.add(c);
          lastCommand = c;
        }
      }
      pendingNotRun = null;
      pendingExpected = false;
      i = end;
    }
  }

  private static List<DocCommand> commandsIn(String doc, int firstLine, List<String> body, String notRun) {
    List<DocCommand> found = new ArrayList<>();
    StringBuilder logical = new StringBuilder();
    int lineOfLogical = firstLine;
    for (int k = 0; k < body.size(); k++) {
      String raw = body.get(k);
      if (logical.length() == 0) {
        lineOfLogical = firstLine + k + 1;
      }
      String stripped = raw.stripTrailing();
      if (stripped.endsWith("\\")) {
        logical.append(stripped, 0, stripped.length() - 1).append(' ');
        continue;
      }
      logical.append(stripped);
      String text = stripComment(logical.toString()).strip();
      logical.setLength(0);
      if (text.startsWith("$ ")) {
        text = text.substring(2).strip();
      }
      List<String> words = words(text);
      boolean viaKubectl = words.size() >= 2 && words.get(0).equals("kubectl") && words.get(1).equals("headroom");
      boolean direct = !words.isEmpty() && (words.get(0).equals("headroom") || words.get(0).equals("./headroom"));
      if (!viaKubectl && !direct) {
        continue;
      }
      String where = doc + ":" + lineOfLogical;
      List<String> args = new ArrayList<>(words.subList(viaKubectl ? 2 : 1, words.size()));
      String stdin = null;
      int redirect = args.indexOf("<");
      if (redirect >= 0) {
        assertThat(redirect).as("%s: `<` must be followed by one file, last", where).isEqualTo(args.size() - 2);
        stdin = args.get(redirect + 1);
        args = new ArrayList<>(args.subList(0, redirect));
      }
      for (String w : args) {
        assertThat(Set.of("|", ">", ">>", "&&", "||", ";", "&")).as("%s: keep `%s` a plain command", where, text)
            .doesNotContain(w);
      }
      found.add(new DocCommand(where, text, List.copyOf(args), stdin, viaKubectl, notRun));
    }
    return found;
  }

  /** Drops a trailing {@code # comment} (a {@code #} after whitespace, outside quotes). */
  static String stripComment(String line) {
    char quote = 0;
    for (int i = 0; i < line.length(); i++) {
      char ch = line.charAt(i);
      if (quote != 0) {
        if (ch == quote) {
          quote = 0;
        }
      } else if (ch == '\'' || ch == '"') {
        quote = ch;
      } else if (ch == '#' && (i == 0 || Character.isWhitespace(line.charAt(i - 1)))) {
        return line.substring(0, i);
      }
    }
    return line;
  }

  /** Shell words: whitespace-separated, single and double quotes removed. */
  static List<String> words(String text) {
    List<String> words = new ArrayList<>();
    StringBuilder w = new StringBuilder();
    boolean inWord = false;
    char quote = 0;
    for (char ch : text.toCharArray()) {
      if (quote != 0) {
        if (ch == quote) {
          quote = 0;
        } else {
          w.append(ch);
        }
      } else if (ch == '\'' || ch == '"') {
        quote = ch;
        inWord = true;
      } else if (Character.isWhitespace(ch)) {
        if (inWord) {
          words.add(w.toString());
          w.setLength(0);
          inWord = false;
        }
      } else {
        w.append(ch);
        inWord = true;
      }
    }
    if (inWord) {
      words.add(w.toString());
    }
    return words;
  }

  static String subcommand(List<String> args) {
    return args.stream().filter(a -> !a.startsWith("-")).findFirst().orElse("");
  }

  /** A path the doc gives relative to the repository root, made absolute for the test's cwd. */
  static List<String> resolvePaths(List<String> args) {
    List<String> out = new ArrayList<>();
    for (String a : args) {
      int eq = a.indexOf('=');
      if (a.startsWith("--") && eq > 0) {
        out.add(a.substring(0, eq + 1) + resolve(a.substring(eq + 1)));
      } else {
        out.add(a.startsWith("-") ? a : resolve(a));
      }
    }
    return out;
  }

  private static String resolve(String value) {
    if (value.isEmpty() || value.startsWith("/") || value.contains(":")) {
      return value;
    }
    Path p = ROOT.resolve(value);
    return Files.exists(p) && value.contains("/") ? p.toString() : value;
  }

  static String normalize(String text) {
    return text.lines().map(String::stripTrailing).collect(Collectors.joining("\n")).strip();
  }

  /**
   * Options as name → value, with {@code --x=v} split into {@code --x v}. Names without a value
   * (flags) stay as they are. Order is kept; set/replace change values in place.
   */
  static final class Args {
    private final List<String> tokens = new ArrayList<>();
    private final CommandLine.Model.CommandSpec spec;

    Args(List<String> args) {
      this(args, null);
    }

    Args(List<String> args, CommandLine.Model.CommandSpec spec) {
      this.spec = spec;
      for (String a : args) {
        int eq = a.indexOf('=');
        if (a.startsWith("--") && eq > 0) {
          tokens.add(a.substring(0, eq));
          tokens.add(a.substring(eq + 1));
        } else {
          tokens.add(a);
        }
      }
    }

    String value(String name) {
      int i = tokens.indexOf(name);
      return i >= 0 && i + 1 < tokens.size() ? tokens.get(i + 1) : null;
    }

    /** Replaces the value, or appends the option. */
    void set(String name, String value) {
      if (!replace(name, value)) {
        tokens.add(name);
        tokens.add(value);
      }
    }

    /** Replaces the value if the option is given; says whether it was. */
    boolean replace(String name, String value) {
      int i = tokens.indexOf(name);
      if (i < 0) {
        return false;
      }
      tokens.set(i + 1, value);
      return true;
    }

    /** Replaces the value, or appends the option when the command has it. */
    void replaceOrAddIfKnown(String name, String value) {
      if (!replace(name, value) && spec != null && spec.findOption(name) != null) {
        tokens.add(name);
        tokens.add(value);
      }
    }

    boolean remove(String name) {
      int i = tokens.indexOf(name);
      if (i < 0 || i + 1 >= tokens.size()) {
        return false;
      }
      tokens.remove(i + 1);
      tokens.remove(i);
      return true;
    }

    void removeAll(String name) {
      while (remove(name)) {
        // every occurrence (repeatable options)
      }
    }

    List<String> list() {
      return List.copyOf(tokens);
    }
  }
}
