package dev.kubeheadroom.ops;

import org.slf4j.MDC;

/**
 * Puts a pod's {@code namespace} and {@code pod} in the logging MDC for a block of work about it,
 * so every line logged inside (by any class) names the pod: a {@code [namespace=…, pod=…]} suffix
 * in text logs, an {@code mdc} object in JSON. Use in try-with-resources on the thread doing the
 * work; closing restores what the MDC held before.
 */
public final class PodLogContext implements AutoCloseable {
  public static final String NAMESPACE = "namespace";
  public static final String POD = "pod";

  private final String previousNamespace;
  private final String previousPod;

  private PodLogContext(String namespace, String pod) {
    previousNamespace = MDC.get(NAMESPACE);
    previousPod = MDC.get(POD);
    put(NAMESPACE, namespace);
    put(POD, pod);
  }

  public static PodLogContext of(String namespace, String pod) {
    return new PodLogContext(namespace, pod);
  }

  @Override
  public void close() {
    put(NAMESPACE, previousNamespace);
    put(POD, previousPod);
  }

  private static void put(String key, String value) {
    if (value == null) {
      MDC.remove(key);
    } else {
      MDC.put(key, value);
    }
  }
}
