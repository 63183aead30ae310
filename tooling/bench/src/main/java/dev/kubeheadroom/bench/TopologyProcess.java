package dev.kubeheadroom.bench;

import dev.kubeheadroom.schemas.KafkaClientSettings;
import dev.kubeheadroom.schemas.NodeDecision;
import dev.kubeheadroom.schemas.TopicLayout;
import dev.kubeheadroom.schemas.Topics;
import dev.kubeheadroom.topology.FailoverTimeouts;
import dev.kubeheadroom.topology.InternalTopics;
import dev.kubeheadroom.topology.TopologyListener;
import dev.kubeheadroom.topology.TopologyRunner;
import dev.kubeheadroom.topology.TopologySettings;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * One topology instance in its own JVM, for a real kill -9 ({@link #kill}: {@link
 * Process#destroyForcibly}, SIGKILL on Linux — the exit status it reports, 137, says so). Unlike
 * an in-JVM close, a killed instance aborts nothing: its open transaction stays open until the
 * coordinator times it out. The child ({@link #main}) starts one {@link TopologyRunner} as {@code
 * headroom run --stage topology} does (the stage's options, the changelogs replicated as the
 * topics) and reports on stdout, one line each: {@code E node nanos} per evaluation, {@code D node
 * nanos} per decision, {@code S state nanos} per state change. {@link System#nanoTime} is
 * CLOCK_MONOTONIC on Linux, one clock for every process of the machine, so the parent compares
 * them with its own. The child exits when its stdin closes (the parent gone).
 */
final class TopologyProcess implements AutoCloseable {
  /** What a child reported: {@code kind} E, D or S; {@code subject} a node or a state. */
  record Report(char kind, String subject, long nanos) {}

  private final Process process;
  private final Thread reader;

  private TopologyProcess(Process process, Thread reader) {
    this.process = process;
    this.reader = reader;
  }

  /** Starts instance {@code name}; every line it reports goes to {@code reports}, its stderr to {@code log}. */
  static TopologyProcess launch(String name, String bootstrap, String applicationId, Path stateDir, int standbys,
      int partitions, FailoverTimeouts timeouts, String xmx, Path log, Consumer<Report> reports) {
    List<String> command = new ArrayList<>(List.of(
        ProcessHandle.current().info().command().orElseThrow(), "-Xmx" + xmx,
        "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", "-Dorg.slf4j.simpleLogger.log.org.apache.kafka=error",
        "-cp", System.getProperty("java.class.path"), TopologyProcess.class.getName(),
        bootstrap, applicationId, stateDir.toString(), Integer.toString(standbys), Integer.toString(partitions),
        Long.toString(timeouts.sessionTimeout().toMillis()), Long.toString(timeouts.transactionTimeout().toMillis())));
    try {
      Process process = new ProcessBuilder(command).redirectError(log.toFile()).start();
      Thread reader = new Thread(() -> read(process, reports), "topology-" + name + "-reports");
      reader.setDaemon(true);
      reader.start();
      return new TopologyProcess(process, reader);
    } catch (IOException e) {
      throw new IllegalStateException("cannot start " + command, e);
    }
  }

  private static void read(Process process, Consumer<Report> reports) {
    try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line; (line = in.readLine()) != null; ) {
        String[] f = line.split(" ");
        if (f.length == 3 && f[0].length() == 1) {
          reports.accept(new Report(f[0].charAt(0), f[1], Long.parseLong(f[2])));
        }
      }
    } catch (IOException | NumberFormatException e) {
      // the child is gone, or printed something else: nothing more to read
    }
  }

  /**
   * SIGSTOP ({@code true}) or SIGCONT: a stopped instance is, to Kafka, already dead (no heartbeat,
   * no request), so the harness can look at its open transactions before it kills it.
   */
  void freeze(boolean stop) throws IOException, InterruptedException {
    int status = new ProcessBuilder("kill", stop ? "-STOP" : "-CONT", Long.toString(process.pid())).inheritIO().start()
        .waitFor();
    if (status != 0) {
      throw new IOException("kill " + (stop ? "-STOP " : "-CONT ") + process.pid() + " exited " + status);
    }
  }

  /** SIGKILL; returns the exit status (128 + 9 = 137 for SIGKILL). */
  int kill() throws InterruptedException {
    process.destroyForcibly();
    return process.waitFor();
  }

  /** SIGTERM: the child's shutdown hook closes the topology, which leaves the group. */
  @Override
  public void close() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(40, java.util.concurrent.TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor();
    }
    reader.join(5_000);
  }

  /** {@code BOOTSTRAP APPLICATION_ID STATE_DIR STANDBYS PARTITIONS SESSION_MS TRANSACTION_MS}. */
  public static void main(String[] args) throws Exception {
    Topics topics = Topics.defaults();
    PrintStream out = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), false,
        StandardCharsets.UTF_8);
    TopologyListener listener = new TopologyListener() {
      @Override
      public void evaluated(String node, long nanos) {
        report(out, 'E', node);
      }

      @Override
      public void decided(NodeDecision decision) {
        report(out, 'D', decision.node());
      }
    };
    FailoverTimeouts timeouts = new FailoverTimeouts(Duration.ofMillis(Long.parseLong(args[5])),
        Duration.ofMillis(Long.parseLong(args[6])));
    KafkaClientSettings kafka = InternalTopics.replicatedAs(TopicLayout.singleBroker(Integer.parseInt(args[4])),
        new KafkaClientSettings(args[0], Map.of()));
    TopologyRunner runner = TopologyRunner.start(new TopologyRunner.Options(args[1], kafka, Path.of(args[2]),
        Integer.parseInt(args[3]), "", timeouts), TopologySettings.defaults(topics), listener);
    Runtime.getRuntime().addShutdownHook(new Thread(runner::close, "close-topology"));
    Thread states = new Thread(() -> {
      Object last = null;
      while (true) {
        Object now = runner.state();
        if (!now.equals(last)) {
          report(out, 'S', now.toString());
          last = now;
        }
        try {
          Thread.sleep(10);
        } catch (InterruptedException e) {
          return;
        }
      }
    }, "state-reports");
    states.setDaemon(true);
    states.start();
    while (System.in.read() >= 0) {
      // the parent holds stdin open; its end (the parent gone) ends this instance
    }
    System.exit(0);
  }

  private static void report(PrintStream out, char kind, String subject) {
    synchronized (out) {
      out.print(kind + " " + subject + " " + System.nanoTime() + "\n");
      out.flush();
    }
  }
}
