package dev.kubeheadroom.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** What every stage command shares: readiness only once started, and a clean stop. */
class StageRuntimeTest {
  private static int readyz(int port) throws Exception {
    HttpResponse<String> r = HttpClient.newHttpClient().send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/readyz")).build(),
        HttpResponse.BodyHandlers.ofString());
    return r.statusCode();
  }

  private static OpsOptions ephemeralOps() {
    OpsOptions ops = new OpsOptions();
    new CommandLine(new Object() {
      @CommandLine.Mixin OpsOptions mixin = ops;
    }).parseArgs("--health-port", "0", "--metrics-port", "0", "--metrics-secure", "false");
    return ops;
  }

  @Test
  void isNotReadyWhileStartingThenReadyAndStopsCleanlyWhenInterrupted() throws Exception {
    StageRuntime runtime = StageRuntime.start(ephemeralOps());
    AtomicBoolean stageReady = new AtomicBoolean(true);
    runtime.readiness.add("stage", stageReady::get);
    // starting: stages registered, but the command has not finished starting them
    assertThat(readyz(runtime.healthPort())).isEqualTo(503);

    // Clients (Kafka's above all) abort an orderly close on an interrupted thread: closing must
    // run with the flag clear, and the flag must be back for the embedding thread afterwards.
    AtomicBoolean interruptedWhileClosing = new AtomicBoolean(true);
    runtime.own(() -> interruptedWhileClosing.set(Thread.currentThread().isInterrupted()));
    AtomicBoolean interruptedAfter = new AtomicBoolean();
    Thread[] runner = new Thread[1];
    CompletableFuture<Integer> exit = new CompletableFuture<>();
    runner[0] = new Thread(() -> {
      int code = runtime.runUntilStopped();
      interruptedAfter.set(Thread.currentThread().isInterrupted());
      exit.complete(code);
    });
    runner[0].start();
    await().atMost(Duration.ofSeconds(10)).until(() -> readyz(runtime.healthPort()) == 200);

    stageReady.set(false);
    await().atMost(Duration.ofSeconds(10)).until(() -> readyz(runtime.healthPort()) == 503);

    runner[0].interrupt();
    assertThat(exit.get()).isZero();
    assertThat(interruptedWhileClosing).isFalse();
    assertThat(interruptedAfter).isTrue();
  }

  @Test
  void aFailedStageEndsTheRunWithExitCode1() throws Exception {
    StageRuntime runtime = StageRuntime.start(ephemeralOps());
    AtomicBoolean failed = new AtomicBoolean();
    runtime.watch("stage", () -> failed.get()
        ? java.util.Optional.of(new IllegalStateException("boom")) : java.util.Optional.empty());
    CompletableFuture<Integer> exit = CompletableFuture.supplyAsync(runtime::runUntilStopped);
    failed.set(true);
    assertThat(exit.get()).isEqualTo(1);
  }
}
