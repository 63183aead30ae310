package dev.kubeheadroom.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * One identity's requests to a real kube-apiserver in a time window, read from the server's JSON
 * audit log: counted by verb and resource ({@code pods/resize} for a subresource), so what
 * Headroom costs the server is told apart from what the bench and its node agent cost it.
 */
final class AuditTally {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** One answered request. */
  record Call(Instant at, String verb, String resource, int code) {}

  private final List<Call> calls;

  private AuditTally(List<Call> calls) {
    this.calls = calls;
  }

  /**
   * Every request of {@code username} the log holds: a watch once, when its response started; any
   * other request when it completed.
   */
  static AuditTally read(Path auditLog, String username) throws IOException {
    List<Call> calls = new ArrayList<>();
    try (BufferedReader in = Files.newBufferedReader(auditLog)) {
      for (String line; (line = in.readLine()) != null; ) {
        JsonNode event = JSON.readTree(line);
        if (!username.equals(event.path("user").path("username").asText())) {
          continue;
        }
        String verb = event.path("verb").asText();
        String stage = event.path("stage").asText();
        if (verb.equals("watch") ? !stage.equals("ResponseStarted") : !stage.equals("ResponseComplete")) {
          continue;
        }
        JsonNode ref = event.path("objectRef");
        String resource = ref.path("resource").asText(event.path("requestURI").asText());
        if (ref.hasNonNull("subresource")) {
          resource += "/" + ref.path("subresource").asText();
        }
        calls.add(new Call(Instant.parse(event.path("requestReceivedTimestamp").asText()), verb,
            resource, event.path("responseStatus").path("code").asInt()));
      }
    }
    return new AuditTally(calls);
  }

  /** "verb resource: N (R/s)" per verb and resource in [from, to), busiest first. */
  List<String> rows(Instant from, Instant to) {
    Map<String, Integer> counts = new TreeMap<>();
    for (Call c : calls) {
      if (!c.at().isBefore(from) && c.at().isBefore(to)) {
        counts.merge(c.verb() + " " + c.resource(), 1, Integer::sum);
      }
    }
    double seconds = Math.max(1e-3, Duration.between(from, to).toMillis() / 1000.0);
    return counts.entrySet().stream()
        .sorted((a, b) -> b.getValue() - a.getValue())
        .map(e -> String.format(Locale.ROOT, "%s: %d (%.2f/s)", e.getKey(), e.getValue(), e.getValue() / seconds))
        .toList();
  }

  /** Requests in [from, to) that were refused (4xx/5xx but a 404 on a get, which informs). */
  long refused(Instant from, Instant to) {
    return calls.stream().filter(c -> !c.at().isBefore(from) && c.at().isBefore(to))
        .filter(c -> c.code() >= 400 && !(c.code() == 404 && c.verb().equals("get"))).count();
  }

  /** The most requests of {@code verb resource} in any one second of [from, to). */
  long peakPerSecond(Instant from, Instant to, String verb, String resource) {
    Map<Long, Integer> perSecond = new TreeMap<>();
    for (Call c : calls) {
      if (!c.at().isBefore(from) && c.at().isBefore(to) && c.verb().equals(verb)
          && c.resource().equals(resource)) {
        perSecond.merge(c.at().getEpochSecond(), 1, Integer::sum);
      }
    }
    return perSecond.values().stream().mapToLong(Integer::longValue).max().orElse(0);
  }

  /** When the last request other than a watch or a Lease renewal came, at or after {@code from}. */
  Instant lastBusy(Instant from) {
    Instant last = from;
    for (Call c : calls) {
      if (!c.at().isBefore(last) && !c.verb().equals("watch") && !c.resource().equals("leases")) {
        last = c.at();
      }
    }
    return last;
  }
}
