package dev.kubeheadroom.installed;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * {@code kubectl exec} into a replica: the operator jar run once more with the replica's
 * environment and its mounted volumes (what the plugin's {@code headroom audit/explain} get).
 */
final class PodExec {
  private static final long TIMEOUT_SECONDS = 180;

  private PodExec() {}

  /** What the command printed (stdout and stderr, interleaved) and its exit code. */
  record Result(int exitCode, String output) {}

  static Result run(StageProcess pod, List<String> args) {
    List<String> command = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"), "-jar",
        PodPlanner.CLI_JAR.toString()));
    command.addAll(args);
    Path out = pod.plan().dir().resolve("exec-" + args.get(0) + ".log");
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile());
    builder.environment().clear();
    builder.environment().putAll(pod.plan().env());
    try {
      Process process = StageProcess.track(builder.start());
      if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        StageProcess.kill(process);
        throw new AssertionError(command + " did not finish within " + TIMEOUT_SECONDS + " s");
      }
      return new Result(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new IllegalStateException("cannot run " + command + ": " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
