package dev.kubeheadroom.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.kubeheadroom.pipeline.Pipeline;
import dev.kubeheadroom.pipeline.Stage;
import dev.kubeheadroom.pipeline.StageContext;
import dev.kubeheadroom.pipeline.StageSpec;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** What every stage command shares: readiness only once started, a clean stop, and what a failed stage does. */
class StageRuntimeTest {
  private static int readyz(int port) throws Exception {
    HttpResponse<String> r = HttpClient.newHttpClient().send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/readyz")).build(),
        HttpResponse.BodyHandlers.ofString());
    return r.statusCode();
  }

  /** A runtime whose metrics port is open ({@code --metrics-auth=none}): no client is ever asked for. */
  private static StageRuntime start(OpsOptions ops) {
    return StageRuntime.start(ops, () -> {
      throw new AssertionError("--metrics-auth=none asked for a Kubernetes client");
    });
  }

  private static OpsOptions ephemeralOps() {
    OpsOptions ops = new OpsOptions();
    new CommandLine(new Object() {
      @CommandLine.Mixin OpsOptions mixin = ops;
    }).parseArgs("--health-port", "0", "--metrics-port", "0", "--metrics-secure", "false",
        "--metrics-auth", "none");
    return ops;
  }

  @Test
  void isNotReadyWhileStartingThenReadyAndStopsCleanlyWhenInterrupted() throws Exception {
    StageRuntime runtime = start(ephemeralOps());
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
      int code = runtime.runUntilStopped(java.util.Optional::empty);
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
  void aFailedStageEndsASingleStageCommandWithExitCode1() throws Exception {
    StageRuntime runtime = start(ephemeralOps());
    FakeStage stage = new FakeStage();
    CompletableFuture<Integer> exit = CompletableFuture.supplyAsync(
        () -> runtime.run(Pipeline.start(runtime.context, new IngestCommand().restartPolicy(), List.of(stage))));
    await().atMost(Duration.ofSeconds(10)).until(() -> readyz(runtime.healthPort()) == 200);
    stage.fail();
    assertThat(exit.get(10, TimeUnit.SECONDS)).isEqualTo(1);
    assertThat(stage.starts).hasValue(1);
  }

  /**
   * {@code headroom run} holds every stage and, often, the embedded broker: a failed stage is
   * restarted in-process and the others keep running (today's code ended the process, exit 1).
   */
  @Test
  void runRestartsAFailedStageInProcessAndKeepsRunning() throws Exception {
    StageRuntime runtime = start(ephemeralOps());
    FakeStage failing = new FakeStage();
    FakeStage other = new FakeStage();
    other.name = "other";
    CompletableFuture<Integer> exit = new CompletableFuture<>();
    Thread runner = new Thread(() -> exit.complete(
        runtime.run(Pipeline.start(runtime.context, new RunCommand().restartPolicy(), List.of(failing, other)))));
    runner.start();
    await().atMost(Duration.ofSeconds(10)).until(() -> readyz(runtime.healthPort()) == 200);

    failing.fail();
    await().atMost(Duration.ofSeconds(10)).until(() -> failing.starts.get() == 2);
    await().atMost(Duration.ofSeconds(10)).until(() -> readyz(runtime.healthPort()) == 200);
    assertThat(exit).isNotDone();
    assertThat(other.starts).as("the other stage was left running").hasValue(1);
    assertThat(other.closes).hasValue(0);
    assertThat(runtime.registry.find(Pipeline.RESTARTS).tag("stage", "fake").counter().count()).isEqualTo(1.0);

    runner.interrupt(); // as a signal would: the run ends cleanly
    assertThat(exit.get(10, TimeUnit.SECONDS)).isZero();
    assertThat(failing.closes).hasValue(2);
    assertThat(other.closes).hasValue(1);
  }

  /** A stage that is ready until told to fail; each start is a fresh instance. */
  private static final class FakeStage implements StageSpec {
    String name = "fake";
    final AtomicInteger starts = new AtomicInteger();
    final AtomicInteger closes = new AtomicInteger();
    private volatile AtomicBoolean failed = new AtomicBoolean();

    void fail() {
      failed.set(true);
    }

    @Override
    public String name() {
      return name;
    }

    @Override
    public Stage start(StageContext context) {
      starts.incrementAndGet();
      AtomicBoolean mine = new AtomicBoolean();
      failed = mine;
      return new Stage() {
        @Override
        public String name() {
          return name;
        }

        @Override
        public boolean ready() {
          return !mine.get();
        }

        @Override
        public Optional<Throwable> failure() {
          return mine.get() ? Optional.of(new IllegalStateException("boom")) : Optional.empty();
        }

        @Override
        public void close() {
          closes.incrementAndGet();
        }
      };
    }
  }
}
