package dev.kubeheadroom.installed;

import com.fasterxml.jackson.databind.JsonNode;
import dev.kubeheadroom.kubedouble.RequestJournal;
import dev.kubeheadroom.kubedouble.RequestMatcher;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The resize PATCHes the API server accepted (200), each with what it asked for, from the
 * double's journal. A duplicate is a resize that asks a pod for the very limits its previous
 * accepted resize already set: the pod already had them, so the patch did nothing but load the
 * API server and the kubelet (and, on a real cluster, reset the resize status).
 */
final class PatchLog {
  /** One accepted resize: the pod ({@code ns/name}) and its containers' limits as sent. */
  record Resize(Instant at, String pod, String limits) {}

  private final List<Resize> resizes;

  PatchLog(List<RequestJournal.Entry> journal) {
    RequestMatcher resize = RequestMatcher.resize();
    resizes = journal.stream().filter(e -> e.code() == 200 && resize.test(e.request()))
        .map(e -> new Resize(e.at(), e.request().namespace() + "/" + e.request().name(), limits(e.body())))
        .toList();
  }

  /** Accepted resizes at or after {@code since}. */
  long resizesSince(Instant since) {
    return resizes.stream().filter(r -> !r.at().isBefore(since)).count();
  }

  /** Accepted resizes of {@code pod} at or after {@code since}. */
  long resizesOf(String pod, Instant since) {
    return resizes.stream().filter(r -> r.pod().equals(pod) && !r.at().isBefore(since)).count();
  }

  /** Duplicates (see the class comment) at or after {@code since}, as {@code pod limits} lines. */
  List<String> duplicatesSince(Instant since) {
    Map<String, String> previous = new HashMap<>();
    List<String> out = new java.util.ArrayList<>();
    for (Resize r : resizes) {
      String before = previous.put(r.pod(), r.limits());
      if (r.limits().equals(before) && !r.at().isBefore(since)) {
        out.add(r.at() + " " + r.pod() + " " + r.limits());
      }
    }
    return out;
  }

  /** {@code name=cpu,...} of every container the apply body names, in body order. */
  private static String limits(String body) {
    try {
      JsonNode root = Serialization.jsonMapper().readTree(body);
      StringBuilder out = new StringBuilder();
      for (String list : List.of("initContainers", "containers")) {
        for (JsonNode c : root.path("spec").path(list)) {
          out.append(c.path("name").asText()).append('=')
              .append(c.path("resources").path("limits").path("cpu").asText()).append(',');
        }
      }
      return out.toString();
    } catch (java.io.IOException e) {
      return "unparsed:" + body;
    }
  }
}
