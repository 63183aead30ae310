package dev.kubeheadroom.installed;

import dev.kubeheadroom.testkit.TestKafka;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SmokeTest {
  @Test
  void installs() {
    Path dir = Path.of("target/runs/smoke");
    try (Cluster cluster = Cluster.start()) {
      Map<String, Object> values = Installation.testValues(TestKafka.shared().bootstrapServers());
      try (Installation inst = Installation.install(cluster, dir, Installation.RELEASE, Installation.NAMESPACE, values)) {
        System.out.println("STARTUP " + inst.startup());
        System.out.println(inst.outputs());
      } finally {
        cluster.api.requests().entries().forEach(e -> System.out.println(e.code() + " " + e.request()));
      }
    }
  }
}
