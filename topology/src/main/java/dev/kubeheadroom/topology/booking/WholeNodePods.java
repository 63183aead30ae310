package dev.kubeheadroom.topology.booking;

import java.util.SortedMap;

/**
 * A pods store (key: node NUL uid) that also takes a node's pod entries whole: what an in-memory
 * replay store offers, so that a booking step hands it the booking's immutable table (one
 * reference) instead of building a key and making a sorted insert per touched pod. Changelogged
 * stores are written per pod, as a restore reads them back, and never implement this.
 */
public interface WholeNodePods {
  /**
   * The node's pod entries are from now on exactly {@code pods} (uid order, never modified
   * afterwards); empty: the node has none.
   */
  void putNode(String node, SortedMap<String, PodEntry> pods);
}
