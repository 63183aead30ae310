package dev.kubeheadroom.topology;

import dev.kubeheadroom.schemas.NodeCheckpoint;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.streams.processor.StreamPartitioner;

/**
 * A checkpoint goes to its node's partition (the producer's default partitioner on the node
 * name, as ingest keys the input topics), not by its own key: each checkpoint partition is then
 * written by one task, in boundary order, so a reader can stop at the first later boundary.
 */
public final class CheckpointPartitioner implements StreamPartitioner<String, NodeCheckpoint> {
  /** The partition of {@code node} among {@code partitions}. */
  public static int partition(String node, int partitions) {
    return Utils.toPositive(Utils.murmur2(node.getBytes(StandardCharsets.UTF_8))) % partitions;
  }

  @Override
  public Optional<Set<Integer>> partitions(String topic, String key, NodeCheckpoint value, int numPartitions) {
    return Optional.of(Set.of(partition(value.node(), numPartitions)));
  }
}
