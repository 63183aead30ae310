package dev.kubeheadroom.kubereal;

import java.util.OptionalLong;

/** A scrape of the kubelet's {@code /metrics/cadvisor}, read for one container's series. */
record CadvisorMetrics(String text) {

  /** The value of {@code metric} for container {@code container} of pod {@code ns/pod}, if present. */
  OptionalLong value(String metric, String ns, String pod, String container) {
    String labels = "container=\"" + container + "\"";
    return text.lines()
        .filter(l -> l.startsWith(metric + "{") && l.contains(labels)
            && l.contains("namespace=\"" + ns + "\"") && l.contains("pod=\"" + pod + "\""))
        // name{labels} value [timestamp]
        .mapToLong(l -> (long) Double.parseDouble(l.substring(l.lastIndexOf('}') + 1).strip().split("\\s+")[0]))
        .findFirst();
  }
}
