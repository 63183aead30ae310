package dev.kubeheadroom.cli;

import dev.kubeheadroom.testkit.fuzz.FuzzCorpus;
import dev.kubeheadroom.testkit.fuzz.HostileDocuments;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The fuzzer: seeds from {@code src/test/resources/fuzz} (the corpus, findings included) with one
 * to four mutations each ({@link HostileDocuments}), through {@code simulate}'s watch-log readers,
 * projection and topology, its {@code --config} reader, and {@code policy}'s JSON reader, each
 * held to {@link HostileInputs#holds}. {@code mvn verify} runs a short pass (jqwik.tries.default
 * in src/test/resources/junit-platform.properties); {@code -Pfuzz-long} a long one
 * (docs/reliability.md). A failure is shrunk by jqwik; keep it as a finding in the corpus.
 */
class HostileInputsFuzzProperties {

  @Property
  void simulateHoldsOnAMutatedWatchLog(@ForAll("watchLogs") byte[] log) throws IOException {
    Path dir = Files.createTempDirectory("fuzz");
    try {
      HostileInputs.holds(HostileInputs.simulate(dir, log, null), "watch log");
    } finally {
      deleteAll(dir);
    }
  }

  @Property
  void simulateHoldsOnAMutatedConfig(@ForAll("configs") byte[] config) throws IOException {
    Path dir = Files.createTempDirectory("fuzz");
    try {
      byte[] log = HostileInputs.seedLog();
      HostileInputs.holds(HostileInputs.simulate(dir, log, config), "config");
    } finally {
      deleteAll(dir);
    }
  }

  @Property
  void policyHoldsOnAMutatedRequest(@ForAll("policyRequests") byte[] request) {
    HostileInputs.holdsForPolicy(request, HostileInputs.policy(request), "policy request");
  }

  @Provide
  Arbitrary<byte[]> watchLogs() {
    return HostileDocuments.mutated(seeds("watch-log"));
  }

  @Provide
  Arbitrary<byte[]> configs() {
    return HostileDocuments.mutated(seeds("config"));
  }

  @Provide
  Arbitrary<byte[]> policyRequests() {
    return HostileDocuments.mutated(seeds("policy"));
  }

  private static List<byte[]> seeds(String kind) {
    return FuzzCorpus.contents(HostileInputs.class, kind);
  }

  private static void deleteAll(Path dir) throws IOException {
    try (var files = Files.walk(dir)) {
      for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
