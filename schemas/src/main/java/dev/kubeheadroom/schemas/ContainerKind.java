package dev.kubeheadroom.schemas;

import com.fasterxml.jackson.annotation.JsonValue;

/** Where a container sits in the pod spec. */
public enum ContainerKind {
  /** A regular container. */
  APP("app"),
  /** A restartable init container (restartPolicy: Always): runs beside the app, resizable. */
  SIDECAR("sidecar"),
  /** A run-to-completion init container: counts towards the effective request, never resized. */
  INIT("init");

  private final String wireName;

  ContainerKind(String wireName) {
    this.wireName = wireName;
  }

  @JsonValue
  public String wireName() {
    return wireName;
  }
}
