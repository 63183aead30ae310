package dev.kubeheadroom.testkit;

import dev.kubeheadroom.kafka.embedded.DataDirLock;
import dev.kubeheadroom.kafka.embedded.EmbeddedKafkaException;
import dev.kubeheadroom.kafka.embedded.KraftStorage;
import java.nio.file.Path;
import java.util.Properties;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One node of an {@link EmbeddedKafkaCluster}: fixed ports and directory for its whole life (the
 * quorum's voter list names them), formatted on first start, locked while it runs.
 */
final class ClusterNode {
  private static final Logger LOG = LoggerFactory.getLogger(ClusterNode.class);

  private final int index;
  private final Path dir;
  private final String clusterId;
  private final Properties props;
  private final int port;
  private KafkaRaftServer server;
  private DataDirLock lock;

  ClusterNode(int index, Path dir, String clusterId, Properties props, int port) {
    this.index = index;
    this.dir = dir;
    this.clusterId = clusterId;
    this.props = props;
    this.port = port;
  }

  String address() {
    return "127.0.0.1:" + port;
  }

  synchronized boolean running() {
    return server != null;
  }

  synchronized void start() {
    if (server != null) {
      throw new IllegalStateException("node " + index + " is running");
    }
    long begin = System.nanoTime();
    KafkaConfig config;
    try {
      config = KafkaConfig.fromProps(props, false);
    } catch (ConfigException e) {
      throw new EmbeddedKafkaException("invalid broker configuration: " + e.getMessage(), e);
    }
    DataDirLock held = DataDirLock.acquire(dir);
    try {
      if (KraftStorage.clusterId(dir.resolve("kraft-logs")) == null) {
        KraftStorage.format(dir, clusterId, props);
      }
      KafkaRaftServer started = new KafkaRaftServer(config, Time.SYSTEM);
      try {
        started.startup();
      } catch (RuntimeException e) {
        started.shutdown();
        started.awaitShutdown();
        throw new EmbeddedKafkaException("Kafka node " + index + " failed to start in " + dir
            + " on " + address() + ": " + e.getMessage(), e);
      }
      server = started;
      lock = held;
      LOG.info("Kafka node {} ready on {} in {} ms", index, address(), (System.nanoTime() - begin) / 1_000_000);
    } catch (RuntimeException e) {
      held.release();
      throw e;
    }
  }

  synchronized void stop() {
    if (server == null) {
      return;
    }
    try {
      server.shutdown();
      server.awaitShutdown();
    } finally {
      server = null;
      lock.release();
      lock = null;
    }
  }
}
