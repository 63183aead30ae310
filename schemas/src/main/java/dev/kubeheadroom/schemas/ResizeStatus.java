package dev.kubeheadroom.schemas;

import com.fasterxml.jackson.annotation.JsonValue;

/** What the kubelet says about the pod's last resize (PodResizePending / PodResizeInProgress). */
public enum ResizeStatus {
  NONE("none"),
  IN_PROGRESS("in-progress"),
  DEFERRED("deferred"),
  INFEASIBLE("infeasible");

  private final String wireName;

  ResizeStatus(String wireName) {
    this.wireName = wireName;
  }

  @JsonValue
  public String wireName() {
    return wireName;
  }
}
