package dev.kubeheadroom.demo;

import dev.kubeheadroom.actuator.Actuator;
import dev.kubeheadroom.actuator.ActuatorSettings;
import dev.kubeheadroom.schemas.KafkaClientSettings;
import dev.kubeheadroom.schemas.Topics;
import dev.kubeheadroom.topology.TopologyListener;
import dev.kubeheadroom.topology.TopologyRunner;
import dev.kubeheadroom.topology.TopologySettings;
import io.fabric8.kubernetes.client.Config;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * One stage instance in its own JVM, so a test can kill it with SIGKILL: no commit, no flush, no
 * leaving the group, an open transaction left to time out, as when a pod's node dies. The
 * instances a test does not kill run in the test's JVM (cheaper); this one is the same code with
 * the same settings. {@link #main} arguments: {@code topology BOOTSTRAP STATE_DIR STANDBYS
 * [key=value...]} or {@code actuator BOOTSTRAP KUBECONFIG [key=value...]}, the key=value pairs
 * being Kafka client properties; it prints {@value #READY} once the stage is ready.
 */
final class ForkedStage implements AutoCloseable {
  static final String READY = "STAGE READY";

  private final Process process;
  private final Path log;

  private ForkedStage(Process process, Path log) {
    this.process = process;
    this.log = log;
  }

  /** Starts {@code args} (see the class comment) in a new JVM without waiting for it: {@link #awaitReady} next. */
  static ForkedStage launch(Path log, List<String> args) {
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx384m", "-XX:+UseSerialGC",
        // C1 only: a JVM that lives a minute spends less CPU compiling than C2 would save it
        "-XX:TieredStopAtLevel=1",
        "-cp", System.getProperty("java.class.path"), ForkedStage.class.getName()));
    command.addAll(args);
    try {
      Files.createDirectories(log.getParent());
      Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
      return new ForkedStage(process, log);
    } catch (IOException e) {
      throw new IllegalStateException("cannot start " + command, e);
    }
  }

  /** Returns once the stage printed {@value #READY}; kills it and throws if it died or took longer than {@code startup}. */
  void awaitReady(Duration startup) {
    try {
      awaitReadyOrThrow(startup);
    } catch (IOException e) {
      throw new IllegalStateException("cannot read " + log, e);
    }
  }

  private void awaitReadyOrThrow(Duration startup) throws IOException {
    long deadline = System.nanoTime() + startup.toNanos();
    while (!Files.readString(log, StandardCharsets.UTF_8).contains(READY)) {
      if (!process.isAlive() || System.nanoTime() > deadline) {
        process.destroyForcibly();
        throw new IllegalStateException("the forked stage did not become ready; its log " + log + ":\n"
            + Files.readString(log, StandardCharsets.UTF_8));
      }
      sleep(100);
    }
  }

  /** SIGKILL, waiting until the process is gone. */
  void kill9() {
    process.destroyForcibly();
    try {
      process.waitFor(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  boolean alive() {
    return process.isAlive();
  }

  @Override
  public void close() {
    if (process.isAlive()) {
      process.destroy(); // SIGTERM: the stage's shutdown hook closes it in order
      try {
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
          kill9();
        }
      } catch (InterruptedException e) {
        kill9();
        Thread.currentThread().interrupt();
      }
    }
  }

  public static void main(String[] args) throws Exception {
    // A test JVM that dies without closing this one must not leave it running.
    ProcessHandle.current().parent().ifPresent(parent -> parent.onExit().thenRun(() -> Runtime.getRuntime().halt(3)));
    String bootstrap = args[1];
    AutoCloseable stage;
    BooleanSupplier ready;
    if (args[0].equals("topology")) {
      KafkaClientSettings kafka = new KafkaClientSettings(bootstrap, properties(args, 4));
      TopologyRunner runner = TopologyRunner.start(new TopologyRunner.Options(
              TopologyRunner.Options.DEFAULT_APPLICATION_ID, kafka, Path.of(args[2]), Integer.parseInt(args[3]), ""),
          TopologySettings.defaults(Topics.defaults()), TopologyListener.NONE);
      stage = runner;
      ready = runner::isRunning;
    } else {
      KafkaClientSettings kafka = new KafkaClientSettings(bootstrap, properties(args, 3));
      Path kubeconfig = Path.of(args[2]);
      Config config = Config.fromKubeconfig(null, Files.readString(kubeconfig), kubeconfig.toString());
      Actuator actuator = Actuator.start(ActuatorSettings.defaults(kafka, Topics.defaults()), config,
          new SimpleMeterRegistry(), Clock.systemUTC());
      stage = actuator;
      ready = actuator::ready;
    }
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      try {
        stage.close();
      } catch (Exception e) {
        System.err.println("closing: " + e);
      }
    }, "stage-stop"));
    while (!ready.getAsBoolean()) {
      sleep(50);
    }
    System.out.println(READY);
    System.out.flush();
    Thread.currentThread().join(); // until killed
  }

  private static Map<String, String> properties(String[] args, int from) {
    Map<String, String> props = new HashMap<>();
    for (int i = from; i < args.length; i++) {
      String[] kv = args[i].split("=", 2);
      props.put(kv[0], kv[1]);
    }
    return props;
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
