package dev.kubeheadroom.launcher;

import dev.kubeheadroom.testkit.TestKafka;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;

/**
 * Adapts the arguments a doc gives to {@link DocsCommandsTest}'s environment: its Kafka broker,
 * the API server double, the recorded history and fresh temporary directories.
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
 *   <li>{@code --kube-context}, {@code --kube-api-url}: dropped; {@code --kubeconfig}: the API
 *       server double's admin kubeconfig (added for the commands that talk to Kubernetes; the
 *       double, like a real server, answers 401 to a request without credentials).
 *   <li>{@code --health-port}: a free port the test probes; {@code --metrics-port 0};
 *       {@code --metrics-secure false}; {@code --metrics-cert-path}, {@code --webhook-cert-dir}:
 *       dropped (self-signed); {@code --webhook-port 0}; {@code --leader-election-lease}: unique per
 *       command (stopped stages do not wait out each other's Lease).
 *   <li>{@code --data-dir}, {@code --state-dir}: fresh temporary directories (added when the
 *       command has the option).
 *   <li>{@code --at}: a moment inside the recorded history; {@code --from}: 2020-01-01;
 *       {@code --to}: now.
 * </ul>
 *
 * <p>{@code demo} and {@code preflight} have rules of their own ({@link #demoArgs},
 * {@link #preflightArgs}).
 */
final class DocArgsRewriter {
  private final Path root;
  private final Path temp;
  private final String kafkaBootstrapServers;
  private final String kubeconfig;
  private final RecordedHistory history;

  /**
   * @param root the repository root, which the docs' relative paths are relative to
   * @param temp where fresh data and state directories are made
   * @param kubeconfig a kubeconfig file for the API server double
   */
  DocArgsRewriter(Path root, Path temp, String kafkaBootstrapServers, String kubeconfig, RecordedHistory history) {
    this.root = root;
    this.temp = temp;
    this.kafkaBootstrapServers = kafkaBootstrapServers;
    this.kubeconfig = kubeconfig;
    this.history = history;
  }

  /** A path the doc gives relative to the repository root, made absolute for the test's cwd. */
  List<String> resolvePaths(List<String> args) {
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

  private String resolve(String value) {
    if (value.isEmpty() || value.startsWith("/") || value.contains(":")) {
      return value;
    }
    Path p = root.resolve(value);
    return Files.exists(p) && value.contains("/") ? p.toString() : value;
  }

  /**
   * demo: at least --speed 20, the short two-node scenario unless the doc names one, and a fresh
   * --dir under the test's temporary directory (a demo keeps its directory for audit and explain).
   */
  List<String> demoArgs(List<String> args) throws IOException {
    Args a = new Args(args);
    a.set("--dir", Files.createTempDirectory(temp, "demo-").toString());
    String speed = a.value("--speed");
    if (speed == null || Double.parseDouble(speed) < 20) {
      a.set("--speed", "20");
    }
    if (a.value("--scenario") == null) {
      a.set("--scenario", root.resolve("docs/examples/two-nodes.jsonl").toString());
    }
    return a.list();
  }

  /** audit and explain: read the recorded history. */
  List<String> historyArgs(List<String> args) {
    Args a = kafkaArgs(new Args(args));
    a.set("--topic-prefix", history.topics().prefix());
    a.replace("--at", history.moment().toString());
    a.replace("--from", "2020-01-01T00:00:00Z");
    a.replace("--to", Instant.now().toString());
    return a.list();
  }

  /** preflight: against the API server double (its kubeconfig), context and URL dropped. */
  List<String> preflightArgs(List<String> args) {
    Args a = new Args(args);
    a.remove("--kube-api-url");
    a.remove("--kube-context");
    a.set("--kubeconfig", kubeconfig);
    return a.list();
  }

  /** A stage ({@code sub}): its own topics, group, lease, ports and directories. */
  List<String> stageArgs(String sub, List<String> args) throws IOException {
    CommandLine.Model.CommandSpec spec = Launcher.commandLine().getSubcommands().get(sub).getCommandSpec();
    Args a = kafkaArgs(new Args(args, spec));
    a.set("--topic-prefix", TestKafka.uniqueName("docs") + ".");
    a.replaceOrAddIfKnown("--application-id", TestKafka.uniqueName("docs-app"));
    a.replaceOrAddIfKnown("--actuator-group-id", TestKafka.uniqueName("docs-actuator"));
    a.set("--topic-replication-factor", "1");
    a.set("--topic-partitions", "2");
    a.removeAll("--kube-api-url");
    a.removeAll("--kube-context");
    a.replaceOrAddIfKnown("--kubeconfig", kubeconfig);
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

  private Args kafkaArgs(Args a) {
    a.remove("--bootstrap-servers");
    a.set("--kafka-bootstrap-servers", kafkaBootstrapServers);
    a.removeAll("--kafka-client-properties");
    a.removeAll("--kafka-property");
    a.replaceOrAddIfKnown("--data-dir", newDir("data"));
    return a;
  }

  private String newDir(String base) {
    try {
      return Files.createTempDirectory(temp, base).toString();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }
}
