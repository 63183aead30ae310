package dev.kubeheadroom.schemas;

/**
 * Every label, annotation and name users and the cluster see, derived from one API group
 * (docs/design/headroom-design.txt §9.1: migrating deployed keys later is painful, so they come from one constant).
 */
public final class HeadroomKeys {
  /** The API group of the HeadroomConfig CRD and the prefix of every key. */
  public static final String GROUP = "kube-headroom.dev";

  public static final String VERSION = "v1alpha1";
  /** Namespace label opting in ({@value #MANAGED}) or pod label opting out ({@value #UNMANAGED}). */
  public static final String MODE_LABEL = GROUP + "/mode";

  public static final String MANAGED = "managed";
  public static final String UNMANAGED = "unmanaged";
  /** Pod annotation capping that pod's limit, a CPU quantity. */
  public static final String MAX_CPU_ANNOTATION = GROUP + "/max-cpu";
  /**
   * Pod annotation joining the pod to a gang: the pods of one namespace with the same value get
   * one uniform ceiling (§11.6, {@link GangKey}).
   */
  public static final String GANG_ANNOTATION = GROUP + "/gang";
  /** Pod annotation Headroom writes: JSON explaining the last computation. */
  public static final String STATUS_ANNOTATION = GROUP + "/status";
  /**
   * Namespace annotation weighting its tenants' claim on a node's slack under hierarchical
   * tenancy: a positive decimal that multiplies the namespace's request share (default 1).
   */
  public static final String SLACK_WEIGHT_ANNOTATION = GROUP + "/slack-weight";
  /** The server-side-apply field manager for every write Headroom makes. */
  public static final String FIELD_MANAGER = "headroom";
  /** The HeadroomConfig singleton's name, and the key of the config topic. */
  public static final String CONFIG_NAME = "cluster";

  private HeadroomKeys() {}
}
