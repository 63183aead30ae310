package dev.kubeheadroom.installed;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * One replica of a rendered Deployment running as its own JVM ({@code java -jar
 * cli/target/headroom-operator.jar}: the image entrypoint's main class and class path), its output
 * captured to a file. Every process started here is also
 * killed when the test JVM exits, whatever happened to the test.
 */
final class StageProcess implements AutoCloseable {
  private static final Set<Process> LIVE = ConcurrentHashMap.newKeySet();
  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  static {
    Runtime.getRuntime().addShutdownHook(new Thread(() -> LIVE.forEach(Process::destroyForcibly),
        "installed-stage-reaper"));
  }

  private final PodPlan plan;
  private final Process process;

  private StageProcess(PodPlan plan, Process process) {
    this.plan = plan;
    this.process = process;
  }

  /** Starts the pod's container as planned (a restart appends to the same output). */
  static StageProcess start(PodPlan plan) {
    ProcessBuilder builder = new ProcessBuilder(plan.command()).directory(plan.dir().toFile())
        .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(plan.log().toFile()));
    // A pod's environment is what its spec gives, nothing of the test JVM's.
    builder.environment().clear();
    builder.environment().putAll(plan.env());
    try {
      return new StageProcess(plan, track(builder.start()));
    } catch (IOException e) {
      throw new IllegalStateException("cannot start " + plan.podName() + ": " + plan.command(), e);
    }
  }

  /** Kills {@code process} with the test JVM, whatever happens to the test. */
  static Process track(Process process) {
    LIVE.add(process);
    return process;
  }

  /** SIGKILL ({@link Process#destroyForcibly} on Linux), waiting until it is gone. */
  static void kill(Process process) {
    process.destroyForcibly();
    try {
      process.waitFor(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      LIVE.remove(process);
    }
  }

  /** kill -9: the container dies without its shutdown hooks (no lease release, no offset commit). */
  void kill9() {
    kill(process);
  }

  /** The same replica started again (what the kubelet does after the container exits). */
  StageProcess restarted() {
    if (process.isAlive()) {
      throw new IllegalStateException(plan.podName() + " still runs");
    }
    return start(plan);
  }

  String podName() {
    return plan.podName();
  }

  PodPlan plan() {
    return plan;
  }

  /** The loopback port standing in for the container port {@code name} (health, metrics, webhook). */
  int port(String name) {
    Integer port = plan.ports().get(name);
    if (port == null) {
      throw new IllegalArgumentException(plan.podName() + " has no port " + name + ": " + plan.ports());
    }
    return port;
  }

  boolean alive() {
    return process.isAlive();
  }

  /** The exit code, or -1 while the process runs. */
  int exitCode() {
    return process.isAlive() ? -1 : process.exitValue();
  }

  /** The container's readiness probe, as the kubelet would run it: HTTP GET, 2xx/3xx = ready. */
  boolean ready() {
    if (!process.isAlive()) {
      return false;
    }
    URI uri = URI.create("http://127.0.0.1:" + port(plan.readinessPort()) + plan.readinessPath());
    try {
      HttpResponse<Void> response = HTTP.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(3)).build(),
          HttpResponse.BodyHandlers.discarding());
      // alive after the answer too: an exited replica's port may be answered by another process
      return response.statusCode() >= 200 && response.statusCode() < 400 && process.isAlive();
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** Everything the process printed so far. */
  String output() {
    try {
      return Files.readString(plan.log(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "(no output: " + e.getMessage() + ")";
    }
  }

  /** The last {@code lines} lines the process printed, for failure messages. */
  String tail(int lines) {
    List<String> all = output().lines().toList();
    return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
  }

  /** The SIGTERM a pod gets on deletion, then SIGKILL after a grace period. */
  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    } finally {
      LIVE.remove(process);
    }
  }

  /** Everything needed to start one replica: see {@link PodPlanner}. */
  record PodPlan(String podName, String serviceAccount, Path dir, List<String> command,
      Map<String, String> env, Map<String, Integer> ports, String readinessPort, String readinessPath) {
    Path log() {
      return dir.resolve("output.log");
    }
  }
}
