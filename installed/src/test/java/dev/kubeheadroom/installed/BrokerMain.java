package dev.kubeheadroom.installed;

import dev.kubeheadroom.kafka.embedded.EmbeddedKafka;
import dev.kubeheadroom.kafka.embedded.EmbeddedKafkaConfig;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

/**
 * The embedded broker as its own process ({@link BrokerProcess}), so that a test can kill it with
 * SIGKILL as a node failure would, rather than close it in an orderly way. Arguments: the data
 * directory and the port (0: any). Prints {@value #READY} and the bootstrap servers once serving.
 */
public final class BrokerMain {
  static final String READY = "BROKER READY ";

  private BrokerMain() {}

  public static void main(String[] args) throws InterruptedException {
    EmbeddedKafka broker = EmbeddedKafka.start(
        EmbeddedKafkaConfig.ephemeral(Path.of(args[0])).withPort(Integer.parseInt(args[1])));
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      broker.close();
      stopped.countDown();
    }, "broker-stop"));
    System.out.println(READY + broker.bootstrapServers());
    System.out.flush();
    stopped.await();
  }
}
