package dev.kubeheadroom.replay;

import dev.kubeheadroom.schemas.NodeCheckpoint.Run;
import dev.kubeheadroom.schemas.Topics;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * One interval's records put in the order a live task read them ({@code NodeCheckpoint.order}):
 * each node's node-keyed records are taken from their topics run by run (a topic's records of
 * one partition come in offset order either way) and put back in the places the node's records
 * held; everything else stays where it was. A node whose runs do not account for exactly its
 * records (not the interval the order was recorded over) keeps its records as they were.
 */
final class ReadOrder {
  private ReadOrder() {}

  static List<ConsumerRecord<String, byte[]>> apply(List<ConsumerRecord<String, byte[]>> interval,
      Map<String, List<Run>> orders, Topics topics) {
    if (orders.isEmpty()) {
      return interval;
    }
    List<String> nodeKeyed = topics.nodeKeyed();
    Map<String, List<Integer>> places = new HashMap<>();
    for (int i = 0; i < interval.size(); i++) {
      ConsumerRecord<String, byte[]> r = interval.get(i);
      if (r.key() != null && orders.containsKey(r.key()) && nodeKeyed.contains(r.topic())) {
        places.computeIfAbsent(r.key(), k -> new ArrayList<>()).add(i);
      }
    }
    List<ConsumerRecord<String, byte[]>> out = new ArrayList<>(interval);
    places.forEach((node, at) -> {
      List<ConsumerRecord<String, byte[]>> read = inReadOrder(interval, at, orders.get(node));
      if (read != null) {
        for (int i = 0; i < at.size(); i++) {
          out.set(at.get(i), read.get(i));
        }
      }
    });
    return out;
  }

  /** The node's records (at {@code at}) in the order of {@code runs}, or null if the runs do not fit them. */
  private static List<ConsumerRecord<String, byte[]>> inReadOrder(List<ConsumerRecord<String, byte[]>> interval,
      List<Integer> at, List<Run> runs) {
    Map<String, ArrayDeque<ConsumerRecord<String, byte[]>>> byTopic = new HashMap<>();
    for (int i : at) {
      byTopic.computeIfAbsent(interval.get(i).topic(), t -> new ArrayDeque<>()).add(interval.get(i));
    }
    List<ConsumerRecord<String, byte[]>> read = new ArrayList<>(at.size());
    for (Run run : runs) {
      ArrayDeque<ConsumerRecord<String, byte[]>> queue = byTopic.get(run.topic());
      for (int k = 0; k < run.records(); k++) {
        if (queue == null || queue.isEmpty()) {
          return null;
        }
        read.add(queue.poll());
      }
    }
    return read.size() == at.size() ? read : null;
  }
}
