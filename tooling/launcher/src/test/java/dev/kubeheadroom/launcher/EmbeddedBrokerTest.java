package dev.kubeheadroom.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.cli.LocalKafka;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./headroom}'s broker for commands given no Kafka: a broker of its own under
 * {@code --data-dir}, its address left for the other commands, which use that broker when the
 * directory is taken (so {@code explain} works beside {@code run}); closed, it takes its address
 * with it.
 */
class EmbeddedBrokerTest {
  @Test
  void theFirstCommandRunsTheBrokerAndTheNextUsesIt(@TempDir Path dataDir) throws Exception {
    EmbeddedBroker local = new EmbeddedBroker();
    LocalKafka.Broker first = local.open(dataDir);
    Path address = dataDir.resolve(EmbeddedBroker.ADDRESS_FILE);
    try {
      assertThat(first.startedHere()).isNotNull();
      assertThat(address).hasContent(first.bootstrapServers());
      try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, first.bootstrapServers()))) {
        assertThat(admin.describeCluster().nodes().get(60, TimeUnit.SECONDS)).hasSize(1);
      }

      // the directory is taken: the next command uses the running broker, and does not own it
      LocalKafka.Broker second = local.open(dataDir);
      assertThat(second.bootstrapServers()).isEqualTo(first.bootstrapServers());
      assertThat(second.startedHere()).isNull();
    } finally {
      first.startedHere().close();
    }
    assertThat(Files.exists(address)).isFalse();
  }
}
