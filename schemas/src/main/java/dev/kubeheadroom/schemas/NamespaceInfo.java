package dev.kubeheadroom.schemas;

import java.util.Map;

/**
 * A namespace as Headroom sees it: key of the compacted {@code namespaces} topic.
 *
 * @param name namespace name
 * @param labels its labels (the opt-in label and whatever a namespaceSelector matches)
 * @param limitRangeMaxCpuMilli the smallest container {@code max} CPU over its LimitRanges; 0 = none
 */
public record NamespaceInfo(String name, Map<String, String> labels, long limitRangeMaxCpuMilli)
    implements Versioned {
  public NamespaceInfo {
    Require.text(name, "name");
    labels = Require.map(labels);
    Require.nonNegative(limitRangeMaxCpuMilli, "limitRangeMaxCpuMilli");
  }
}
