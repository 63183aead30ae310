package dev.kubeheadroom.projection;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kubeheadroom.testkit.fuzz.FuzzCorpus;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Every object of the config fuzzer's corpus (its seeds and every finding) holds the property as it is. */
class HeadroomConfigCorpusTest {

  @Test
  void everyObjectOfTheCorpusHolds() {
    for (Path file : FuzzCorpus.files(HeadroomConfigCorpusTest.class, "headroom-config")) {
      String name = file.getFileName().toString();
      LastGoodConfig verdict = HeadroomConfigVerdicts.holds(HeadroomConfigVerdicts.object(FuzzCorpus.bytes(file)), name);
      if (name.startsWith("seed-")) {
        assertThat(verdict.refusal()).as(name).isNull();
      }
    }
  }
}
