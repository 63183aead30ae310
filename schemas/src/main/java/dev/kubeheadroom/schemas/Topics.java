package dev.kubeheadroom.schemas;

import java.util.List;
import java.util.Objects;

/**
 * The pipeline's topic names under one prefix (default {@value #DEFAULT_PREFIX}), so several
 * clusters can share one Kafka. A value (equal by prefix); the three event topics' names are made
 * once, as stages name them per record (ingest's and the actuator's sends, a replay's pipe).
 */
public final class Topics {
  public static final String DEFAULT_PREFIX = "headroom.";

  private final String prefix;
  private final String pods;
  private final String nodes;
  private final String outcomes;

  public Topics(String prefix) {
    Objects.requireNonNull(prefix, "prefix");
    if (!prefix.matches("[a-zA-Z0-9._-]*")) {
      throw new IllegalArgumentException(
          "topic prefix may only contain letters, digits, '.', '_' and '-': " + prefix);
    }
    this.prefix = prefix;
    this.pods = prefix + "pods";
    this.nodes = prefix + "nodes";
    this.outcomes = prefix + "outcomes";
  }

  public static Topics defaults() {
    return new Topics(DEFAULT_PREFIX);
  }

  /** The prefix every name starts with. */
  public String prefix() {
    return prefix;
  }

  /** Pod snapshots, removals and node syncs; key: node name. */
  public String pods() {
    return pods;
  }

  /** Node snapshots and removals; key: node name. */
  public String nodes() {
    return nodes;
  }

  /** Namespace labels and LimitRange caps; key: namespace; compacted. */
  public String namespaces() {
    return prefix + "namespaces";
  }

  /** The HeadroomConfig singleton; key: {@code cluster}; compacted. */
  public String config() {
    return prefix + "config";
  }

  /** Limit decisions; key: node name. */
  public String decisions() {
    return prefix + "decisions";
  }

  /** Resize outcomes; key: node name. */
  public String outcomes() {
    return outcomes;
  }

  /**
   * Per-node booking checkpoints ({@link NodeCheckpoint}); key: node {@code @} boundary;
   * compacted, so they outlive the node-keyed topics' retention.
   */
  public String checkpoints() {
    return prefix + "checkpoints";
  }

  /**
   * Each node's part of each gang ({@link GangMembers}); key: the gang ({@link GangKey}), so one
   * task reduces a gang. Read and written only by the topology (the repartition by gang).
   */
  public String gangMembers() {
    return prefix + "gang-members";
  }

  /**
   * Gang ceilings back to the members' nodes ({@link GangCeiling}); key: node name, so it must
   * share the node-keyed topics' partition count (the node's task reads it beside its events).
   */
  public String gangCeilings() {
    return prefix + "gang-ceilings";
  }

  /** The topology's own topics for gangs (§11.6): the repartition by gang and the join back by node. */
  public List<String> gangs() {
    return List.of(gangMembers(), gangCeilings());
  }

  /** Records no stage could read, with the reason. */
  public String deadLetter() {
    return prefix + "dead-letter";
  }

  /** The topics that must share one partition count so a node's history lives in one task. */
  public List<String> nodeKeyed() {
    return List.of(pods(), nodes(), decisions(), outcomes());
  }

  /**
   * Every topic of the pipeline: the node-keyed ones, the compacted ones, the dead letters, the
   * checkpoints, the gangs'.
   */
  public List<String> all() {
    List<String> all = new java.util.ArrayList<>(nodeKeyed());
    all.addAll(compacted());
    all.add(deadLetter());
    all.add(checkpoints());
    all.addAll(gangs());
    return List.copyOf(all);
  }

  /**
   * The topology's default Kafka Streams {@code application.id} under this prefix: releases with
   * different prefixes never share one (the Helm chart derives the same name).
   */
  public String topologyApplicationId() {
    return prefix + "topology";
  }

  /**
   * The actuator's default consumer group under this prefix: two pipelines with different
   * prefixes on one Kafka never share one (the Helm chart derives the same name).
   */
  public String actuatorGroupId() {
    return prefix + "actuator";
  }

  /** The compacted, globally read topics. */
  public List<String> compacted() {
    return List.of(namespaces(), config());
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Topics other && prefix.equals(other.prefix);
  }

  @Override
  public int hashCode() {
    return prefix.hashCode();
  }

  @Override
  public String toString() {
    return "Topics[prefix=" + prefix + "]";
  }
}
