package dev.kubeheadroom.launcher;

import static dev.kubeheadroom.launcher.DocScanner.normalize;
import static dev.kubeheadroom.launcher.DocScanner.subcommand;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.kubeheadroom.launcher.DocScanner.DocCommand;
import dev.kubeheadroom.launcher.DocScanner.Expected;
import dev.kubeheadroom.kubedouble.ApiServerDouble;
import dev.kubeheadroom.testkit.KafkaBroker;
import dev.kubeheadroom.testkit.WithKafka;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
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
 * <p>What counts as a command, and the {@code not-run} and {@code expected-output} markers: see
 * {@link DocScanner}. The substitutions that fit documented arguments to this test's broker, API
 * server double and directories: see {@link DocArgsRewriter}.
 *
 * <p><b>How each command runs</b> (in-process, through {@link Launcher#commandLine}, what {@code
 * ./headroom} runs):
 *
 * <ul>
 *   <li>{@code --help} / {@code help}, {@code policy < FILE}, {@code simulate}: as written, exit 0.
 *   <li>{@code demo}: with {@code --speed 20} (a larger given speed is kept) and, when the doc
 *       gives no {@code --scenario}, {@code --scenario docs/examples/two-nodes.jsonl}, so it takes
 *       seconds instead of the built-in scenario's minutes, in a fresh {@code --dir}; exit 0.
 *   <li>{@code run}, {@code ingest}, {@code topology}, {@code actuator}, {@code webhook}: started in
 *       a thread against the test's Kafka broker and an in-process API server double
 *       ({@link ApiServerDouble}), until the command has started its stages (its thread waits in
 *       {@code StageRuntime.runUntilStopped}) and {@code /readyz} answers 200, then stopped by
 *       interrupting the thread (the stages otherwise stop only on SIGTERM); see
 *       {@link StageRunner}.
 *   <li>{@code audit}, {@code explain}: against a history this test records with a real
 *       exactly-once topology ({@link RecordedHistory}, as {@code AuditCommandTest} does): node
 *       {@code n1} (16 cores), pods {@code team-a/web-1} (2 cores) and {@code team-a/web-2}
 *       (6 cores). Docs must name those pods and that node. Exit 0.
 *   <li>{@code kubectl headroom ARGS}: {@code deploy/kubectl-headroom} is run with {@code HEADROOM}
 *       pointing at a stub launcher that echoes its arguments (they must arrive unchanged), then
 *       {@code headroom ARGS} runs in-process as above. {@code kubectl headroom --help} runs the
 *       plugin's own help.
 *   <li>{@code preflight}: against the API server double ({@code --kubeconfig} with its admin
 *       token; URL and context dropped), which holds no HeadroomConfig: warnings, no failure. Exit 0.
 * </ul>
 */
@WithKafka
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DocsCommandsTest {
  static final Path ROOT = Path.of("..", "..").toAbsolutePath().normalize();
  /** Subcommands documented but not built yet (none now). */
  static final Set<String> NOT_ON_THIS_BRANCH = Set.of();

  @TempDir static Path temp;
  ApiServerDouble api;
  DocArgsRewriter rewriter;
  List<DocCommand> commands;
  List<Expected> expectations;

  @BeforeAll
  void scanDocsAndRecordAHistory(KafkaBroker kafka) throws Exception {
    DocScanner scanner = new DocScanner(ROOT);
    List<Path> docs = new ArrayList<>();
    docs.add(ROOT.resolve("README.md"));
    try (Stream<Path> files = Files.list(ROOT.resolve("docs"))) {
      files.filter(p -> p.toString().endsWith(".md")).sorted().forEach(docs::add);
    }
    for (Path doc : docs) {
      scanner.scan(doc);
    }
    commands = scanner.commands();
    expectations = scanner.expectations();
    api = ApiServerDouble.start();
    RecordedHistory history = RecordedHistory.record(kafka, temp.resolve("history-state"));
    Path kubeconfig = temp.resolve("kube-double-admin.kubeconfig");
    api.writeAdminKubeconfig(kubeconfig);
    rewriter = new DocArgsRewriter(ROOT, temp, kafka.bootstrapServers(), kubeconfig.toString(), history);
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
        Launcher.commandLine().parseArgs(c.args().toArray(String[]::new));
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
    Set<String> all = new TreeSet<>(Launcher.commandLine().getSubcommands().keySet());
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
    args = rewriter.resolvePaths(args);
    String stdin = c.stdinFile() == null ? "" : Files.readString(ROOT.resolve(c.stdinFile()));
    if (help || sub.equals("policy") || sub.equals("simulate")) {
      CliRun r = CliRun.withStdin(stdin, args.toArray(String[]::new));
      if (help) {
        assertThat(r.stdout()).as(c.text()).contains("Usage:");
      }
      return r;
    }
    if (sub.equals("demo")) {
      return CliRun.run(rewriter.demoArgs(args).toArray(String[]::new));
    }
    if (sub.equals("completion")) {
      CliRun r = CliRun.run(args.toArray(String[]::new));
      assertThat(r.stdout()).as(c.text()).contains("complete -F");
      return r;
    }
    if (sub.equals("audit") || sub.equals("explain")) {
      CliRun r = CliRun.run(rewriter.historyArgs(args).toArray(String[]::new));
      assertThat(r.stdout()).as(c.text()).isNotBlank();
      return r;
    }
    if (StageRunner.STAGES.contains(sub)) {
      StageRunner.runUntilReady(c, rewriter.stageArgs(sub, args));
      return null;
    }
    if (sub.equals("preflight")) {
      CliRun r = CliRun.run(rewriter.preflightArgs(args).toArray(String[]::new));
      assertThat(r.stdout()).as(c.text()).containsPattern("\\d+ passed, \\d+ warnings?, 0 failed");
      return r;
    }
    throw new AssertionError(c.where() + ": no rule to run `" + c.text() + "`");
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
}
