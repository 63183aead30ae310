package dev.kubeheadroom.topology;

import dev.kubeheadroom.schemas.KafkaClientSettings;
import dev.kubeheadroom.schemas.Topics;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The topology as its own JVM, so that a test can kill it with SIGKILL
 * ({@link Process#destroyForcibly}) as the kubelet's node or an OOM kill does: no close, no commit,
 * no leaving the group, a transaction left open. Started as the chart starts the stage: static
 * membership under a stable instance id, on a state directory that outlives the process.
 */
final class TopologyProcess {
  private TopologyProcess() {}

  /** {@code bootstrap topicPrefix applicationId stateDir groupInstanceId}. */
  public static void main(String[] args) throws InterruptedException {
    TopologyRunner.Options options = new TopologyRunner.Options(args[2],
        new KafkaClientSettings(args[0], Map.of()), Path.of(args[3]), 0, args[4]);
    TopologyRunner runner = TopologyRunner.start(options, TopologySettings.defaults(new Topics(args[1])),
        TopologyListener.NONE);
    Throwable failure = runner.awaitStop();
    System.err.println("topology stopped: " + failure);
    System.exit(1);
  }

  /** Starts one, its output appended to {@code log}. */
  static Process start(String bootstrap, Topics topics, String applicationId, Path stateDir, String instanceId,
      Path log) throws IOException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx256m");
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(TopologyProcess.class.getName());
    command.add(bootstrap);
    command.add(topics.prefix());
    command.add(applicationId);
    command.add(stateDir.toString());
    command.add(instanceId);
    return new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
  }
}
