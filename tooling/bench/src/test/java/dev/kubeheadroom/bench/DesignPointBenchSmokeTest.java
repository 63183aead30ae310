package dev.kubeheadroom.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * {@link DesignPointBench} at a tiny scale (20 nodes, 200 pods), every phase, so the harness
 * keeps working. On demand: it runs a broker, two topology instances, the actuator and ingest for
 * 40 s or more, which {@code mvn verify}'s budget has no room for.
 *
 * <pre>
 * mvn -B -pl tooling/bench -am test -Dbench.smoke=true -Dtest=DesignPointBenchSmokeTest -Dsurefire.failIfNoSpecifiedTests=false
 * </pre>
 */
@EnabledIfSystemProperty(named = "bench.smoke", matches = "true")
class DesignPointBenchSmokeTest {

  @Test
  void everyPhaseReportsAtATinyScale() throws Exception {
    List<String> lines = DesignPointBench.run(new String[] {"--nodes", "20", "--pods-per-node", "10",
        "--partitions", "4", "--quiet-s", "3", "--warm-s", "6", "--failover", "kill,stop", "--failover-standbys", "1",
        "--churn", "10", "--config-timeout-s", "120"});

    assertThat(lines).anySatisfy(l -> assertThat(l).matches("cluster: 200 pods, .*"));
    assertThat(lines).anySatisfy(l -> assertThat(l).matches("ingest: first full re-publish done .* 1 pod LIST pages; .*"));
    assertThat(lines).anySatisfy(l -> assertThat(l).startsWith("every node evaluated once"));
    assertThat(lines).anySatisfy(l -> assertThat(l).matches("maxMultiplier 10 -> 4: every managed pod at its new limit; last resize .*"));
    assertThat(lines).anySatisfy(l -> assertThat(l).matches("after the change: \\d+ managed pods above 4 x request, 0 of them .*"));
    for (String round : List.of("failover round 0 (kill -9", "failover round 1 (clean leave")) {
      String failover = lines.stream().filter(l -> l.startsWith(round)).findFirst().orElseThrow();
      Matcher m = Pattern.compile("owned partitions \\[([0-9, ]*)\\] of 4; .* per lost partition \\((\\d+) of them\\)"
          + ".* visible read_committed \\((\\d+) of them\\)").matcher(failover);
      assertThat(m.find()).as(failover).isTrue();
      int owned = m.group(1).isBlank() ? 0 : m.group(1).split(",").length;
      assertThat(owned).as(failover).isPositive();
      assertThat(Integer.parseInt(m.group(2))).as(failover).isEqualTo(owned);
      assertThat(Integer.parseInt(m.group(3))).as(failover).isEqualTo(owned);
    }
    // destroyForcibly is SIGKILL on Linux: the child's exit status is 128 + 9
    assertThat(lines).anySatisfy(l -> assertThat(l).contains("SIGKILL took").contains("(exit status 137)"));
  }
}
