package dev.kubeheadroom.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kubeheadroom.policy.Decision;
import dev.kubeheadroom.policy.NodeResult;
import java.io.UncheckedIOException;

/**
 * Writes the {@code headroom policy} result in the exact form of docs/design/cli-contract.md: fields
 * {@code slackMilli, managedRequestsMilli, managedPods, factor, decisions}, in that order, and one
 * decision per line ({@code key, targetLimitMilli, apply, reason}) so the output diffs and greps
 * well.
 */
final class PolicyResultWriter {

  private static final ObjectMapper MAPPER = new ObjectMapper();

  private PolicyResultWriter() {}

  static String write(NodeResult result) {
    StringBuilder out = new StringBuilder(128 + 96 * result.decisions().size());
    out.append("{\"slackMilli\": ").append(result.stats().slackMilli())
        .append(", \"managedRequestsMilli\": ").append(result.stats().managedRequestsMilli())
        .append(", \"managedPods\": ").append(result.stats().managedPods())
        .append(", \"factor\": ").append(result.stats().factor()) // always finite: 1 + slack / M
        .append(",\n \"decisions\": [");
    String separator = "\n  ";
    for (Decision d : result.decisions()) {
      out.append(separator)
          .append("{\"key\": ").append(quote(d.key()))
          .append(", \"targetLimitMilli\": ").append(d.targetLimitMilli())
          .append(", \"apply\": ").append(d.apply())
          .append(", \"reason\": ").append(quote(d.reason().wireName()))
          .append('}');
      separator = ",\n  ";
    }
    return out.append("]}\n").toString();
  }

  /** For a person: the node's numbers, then one row per decision. */
  static void table(NodeResult result, java.io.PrintWriter out) {
    out.printf(java.util.Locale.ROOT, "slack %dm, managed requests %dm over %d pods, factor %.2f%n",
        result.stats().slackMilli(), result.stats().managedRequestsMilli(), result.stats().managedPods(),
        result.stats().factor());
    int key = "KEY".length();
    for (Decision d : result.decisions()) {
      key = Math.max(key, d.key().length());
    }
    String row = "%-" + key + "s  %8s  %-5s  %s%n";
    out.printf(row, "KEY", "TARGET", "APPLY", "REASON");
    for (Decision d : result.decisions()) {
      out.printf(row, d.key(), d.targetLimitMilli() + "m", d.apply(), d.reason().wireName());
    }
  }

  private static String quote(String text) {
    try {
      return MAPPER.writeValueAsString(text);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e); // a String always serializes
    }
  }
}
