package dev.kubeheadroom.replay;

import dev.kubeheadroom.schemas.JsonCodec;
import dev.kubeheadroom.schemas.NodeEvent;
import dev.kubeheadroom.topology.HeadroomTopology;
import dev.kubeheadroom.topology.TopologyListener;
import dev.kubeheadroom.topology.TopologyRunner;
import dev.kubeheadroom.topology.TopologySettings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * The built Kafka Streams topology under {@code TopologyTestDriver}, with {@code TopologyRunner}'s
 * Streams config (exactly_once_v2, persistent cached stores) in a temporary state directory: the
 * yardstick {@link TopologyHarness.Factory#INLINE} is held to.
 */
public final class DriverHarness implements TopologyHarness {
  /** Opens the yardstick: what {@code InlineReplayFidelityTest} and the benchmarks compare with. */
  public static final TopologyHarness.Factory FACTORY = DriverHarness::new;

  private final Path stateDir;
  private final TopologyTestDriver driver;
  private final Map<String, TestInputTopic<String, byte[]>> inputs = new HashMap<>();
  /** Drained and dropped: the topic's records would otherwise pile up in the driver. */
  private final TestOutputTopic<byte[], byte[]> decisions;
  private long wallClockMs;

  public DriverHarness(TopologySettings settings, TopologyListener listener, Instant start) {
    try {
      this.stateDir = Files.createTempDirectory("headroom-replay-");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create a state directory for replay", e);
    }
    // The live app's properties (exactly-once, the dead-letter handlers), bar where it runs.
    Properties props = TopologyRunner.properties(new TopologyRunner.Options("headroom-replay",
        dev.kubeheadroom.schemas.KafkaClientSettings.of("replay:0") /* never contacted */, stateDir), settings, listener);
    driver = new TopologyTestDriver(HeadroomTopology.build(settings, listener), props, start);
    wallClockMs = start.toEpochMilli();
    StringSerializer keys = new StringSerializer();
    ByteArraySerializer values = new ByteArraySerializer();
    for (String topic : Audit.inputTopics(settings.topics())) {
      inputs.put(topic, driver.createInputTopic(topic, keys, values));
    }
    decisions = driver.createOutputTopic(settings.topics().decisions(), new ByteArrayDeserializer(),
        new ByteArrayDeserializer());
  }

  @Override
  public void pipe(String topic, String key, byte[] value, long timestampMs) {
    TestInputTopic<String, byte[]> input = inputs.get(topic);
    if (input == null) {
      throw new IllegalArgumentException("not an input topic: " + topic);
    }
    input.pipeInput(key, value, timestampMs);
    if (!decisions.isEmpty()) {
      decisions.readValuesToList();
    }
  }

  @Override
  public void pipe(String topic, NodeEvent event, long timestampMs) {
    pipe(topic, event.node(), JsonCodec.encode(event), timestampMs);
  }

  @Override
  public void advanceWallClockTo(long ms) {
    if (ms > wallClockMs) {
      driver.advanceWallClockTime(Duration.ofMillis(ms - wallClockMs));
      wallClockMs = ms;
      if (!decisions.isEmpty()) {
        decisions.readValuesToList();
      }
    }
  }

  @Override
  public <V> ReadOnlyKeyValueStore<String, V> store(String name) {
    return driver.getKeyValueStore(name);
  }

  @Override
  public <V> void put(String store, String key, V value) {
    driver.<String, V>getKeyValueStore(store).put(key, value);
  }

  @Override
  public void close() {
    try {
      driver.close();
    } finally {
      deleteQuietly(stateDir);
    }
  }

  private static void deleteQuietly(Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(dir)) {
      walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException ignored) {
      // a temp dir left behind is harmless
    }
  }
}
