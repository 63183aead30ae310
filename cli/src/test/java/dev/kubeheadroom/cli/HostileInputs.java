package dev.kubeheadroom.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kubeheadroom.testkit.fuzz.FuzzCorpus;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The property every parser the outside world feeds must hold (docs/reliability.md, "Hostile
 * inputs"): exit 0, or exit 2 with one line; never an internal error or a stack trace; and in
 * what {@code simulate} and {@code policy} print, no managed limit below its request.
 */
final class HostileInputs {
  private static final ObjectMapper JSON = new ObjectMapper();

  private HostileInputs() {}

  /** The files of one corpus directory under {@code src/test/resources/fuzz}, seeds and findings. */
  static List<Path> corpus(String kind) {
    return FuzzCorpus.files(HostileInputs.class, kind);
  }

  /** The contract's example log: what a config is tried against. */
  static byte[] seedLog() {
    return bytes(corpus("watch-log").stream().filter(p -> p.getFileName().toString().equals("seed-contract.jsonl"))
        .findFirst().orElseThrow());
  }

  static byte[] bytes(Path file) {
    return FuzzCorpus.bytes(file);
  }

  static CliRun simulate(Path dir, byte[] log, byte[] config) throws IOException {
    Path logFile = Files.write(dir.resolve("log.jsonl"), log);
    if (config == null) {
      return CliRun.run("simulate", "--watch-log", logFile.toString(), "-o", "json");
    }
    Path configFile = Files.write(dir.resolve("config.yaml"), config);
    return CliRun.run("simulate", "--watch-log", logFile.toString(), "--config", configFile.toString(), "-o", "json");
  }

  static CliRun policy(byte[] request) {
    return CliRun.withStdin(request, "policy");
  }

  /** Asserts the property of one run; {@code what} names the input in a failure. */
  static void holds(CliRun r, String what) {
    assertThat(r.exitCode()).as("%s: exit code; stderr %s", what, r.stderr()).isIn(0, 2);
    assertThat(r.stderr()).as(what).doesNotContain("internal error").doesNotContain("\tat ")
        .doesNotContain("Exception");
    if (r.exitCode() == 2) {
      assertThat(r.stderr().strip().lines().count()).as("%s: one line: %s", what, r.stderr()).isEqualTo(1);
      return;
    }
    JsonNode out;
    try {
      out = JSON.readTree(r.stdout());
    } catch (IOException e) {
      throw new AssertionError(what + ": stdout is not JSON: " + r.stdout(), e);
    }
    for (JsonNode pod : out.path("pods")) { // simulate
      if (pod.path("managed").asBoolean()) {
        for (JsonNode c : pod.path("containers")) {
          long limit = c.path("limitMilli").asLong();
          assertThat(limit == 0 || limit >= c.path("requestMilli").asLong())
              .as("%s: %s/%s %s: limit %d below request %d", what, pod.path("namespace").asText(),
                  pod.path("name").asText(), c.path("name").asText(), limit, c.path("requestMilli").asLong())
              .isTrue();
        }
      }
    }
  }

  /** {@link #holds}, and for an accepted policy request no target below its pod's request. */
  static void holdsForPolicy(byte[] request, CliRun r, String what) {
    holds(r, what);
    if (r.exitCode() != 0) {
      return;
    }
    java.util.Map<String, Long> requests = new java.util.HashMap<>();
    try {
      JSON.readTree(request).path("pods").forEach(p -> requests.put(p.path("key").asText(), p.path("requestMilli").asLong()));
      for (JsonNode d : JSON.readTree(r.stdout()).path("decisions")) {
        Long req = requests.get(d.path("key").asText());
        if (req != null) {
          assertThat(d.path("targetLimitMilli").asLong()).as("%s: %s", what, d).isGreaterThanOrEqualTo(req);
        }
      }
    } catch (IOException e) {
      throw new AssertionError(what + ": accepted, yet not JSON", e);
    }
  }
}
