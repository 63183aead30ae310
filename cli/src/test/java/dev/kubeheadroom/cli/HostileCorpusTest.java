package dev.kubeheadroom.cli;

import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every input of the fuzzer's corpus (its seeds and every finding) holds the property as it is. */
class HostileCorpusTest {
  @TempDir Path tmp;

  @Test
  void everyWatchLogOfTheCorpusHolds() throws IOException {
    for (Path log : HostileInputs.corpus("watch-log")) {
      HostileInputs.holds(HostileInputs.simulate(tmp, HostileInputs.bytes(log), null), log.getFileName().toString());
    }
  }

  @Test
  void everyConfigOfTheCorpusHolds() throws IOException {
    byte[] log = HostileInputs.seedLog();
    for (Path config : HostileInputs.corpus("config")) {
      HostileInputs.holds(HostileInputs.simulate(tmp, log, HostileInputs.bytes(config)), config.getFileName().toString());
    }
  }

  @Test
  void everyPolicyRequestOfTheCorpusHolds() {
    for (Path request : HostileInputs.corpus("policy")) {
      byte[] bytes = HostileInputs.bytes(request);
      HostileInputs.holdsForPolicy(bytes, HostileInputs.policy(bytes), request.getFileName().toString());
    }
  }
}
