package dev.kubeheadroom.installed;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;

/**
 * The single Kafka broker of a test cluster, as its own JVM ({@link BrokerMain}) on a fixed data
 * directory and port: killed with SIGKILL and started again, it comes back as the same cluster at
 * the same address, as a broker pod on its persistent volume would.
 */
final class BrokerProcess implements AutoCloseable {
  /** Generous: a broker restarted on a loaded machine took over 2 minutes in the fault suite. */
  private static final Duration STARTUP = Duration.ofMinutes(5);

  private final Path dir;
  private Process process;
  private int port;
  private String bootstrapServers;

  private BrokerProcess(Path dir) {
    this.dir = dir;
  }

  /** Starts a broker on a fresh {@code dir} (any free port); returns once it serves. */
  static BrokerProcess start(Path dir) {
    BrokerProcess broker = new BrokerProcess(dir);
    broker.launch(0);
    return broker;
  }

  String bootstrapServers() {
    return bootstrapServers;
  }

  Admin admin() {
    return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers));
  }

  boolean alive() {
    return process != null && process.isAlive();
  }

  /** SIGKILL: no orderly shutdown, no flush beyond what the OS already has. */
  void kill9() {
    StageProcess.kill(process);
  }

  /** An orderly stop (SIGTERM), as for a rolling restart. */
  void stop() {
    process.destroy();
    try {
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        StageProcess.kill(process);
      }
    } catch (InterruptedException e) {
      StageProcess.kill(process);
      Thread.currentThread().interrupt();
    }
  }

  /** Starts it again on the same data directory and port; returns once it serves. */
  void restart() {
    if (alive()) {
      throw new IllegalStateException("the broker still runs");
    }
    launch(port);
  }

  private void launch(int onPort) {
    Path log = dir.resolveSibling(dir.getFileName() + ".log");
    List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx512m", "-cp", System.getProperty("java.class.path"), BrokerMain.class.getName(),
        dir.toString(), Integer.toString(onPort));
    try {
      Files.createDirectories(dir.getParent());
      Files.writeString(log, "", StandardCharsets.UTF_8); // each start's output on its own
      process = StageProcess.track(new ProcessBuilder(command).redirectErrorStream(true)
          .redirectOutput(log.toFile()).start());
    } catch (IOException e) {
      throw new IllegalStateException("cannot start the broker: " + command, e);
    }
    String servers = await("the broker serving").atMost(STARTUP).pollInterval(Duration.ofMillis(200))
        .failFast("the broker exited", () -> !process.isAlive())
        .until(() -> readyLine(log), Optional::isPresent).orElseThrow();
    bootstrapServers = servers;
    port = Integer.parseInt(servers.substring(servers.lastIndexOf(':') + 1));
  }

  private static Optional<String> readyLine(Path log) throws IOException {
    return Files.readAllLines(log, StandardCharsets.UTF_8).stream().filter(l -> l.startsWith(BrokerMain.READY))
        .map(l -> l.substring(BrokerMain.READY.length()).strip()).findFirst();
  }

  @Override
  public void close() {
    if (alive()) {
      stop();
    }
  }
}
