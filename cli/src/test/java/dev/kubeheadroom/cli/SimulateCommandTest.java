package dev.kubeheadroom.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code headroom simulate} end to end: docs/design/cli-contract.md, "headroom simulate". */
class SimulateCommandTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  @TempDir Path tmp;

  private static Path resource(String name) throws URISyntaxException {
    return Path.of(SimulateCommandTest.class.getResource("/" + name).toURI());
  }

  @Test
  void theContractExampleGivesTheContractAnswerInExactlyTheContractForm() throws Exception {
    CliRun r = CliRun.run("simulate", "--watch-log", resource("contract-example.jsonl").toString(),
        "--output", "json");
    assertThat(r.exitCode()).as(r.stderr()).isZero();
    JsonNode d = JSON.readTree(r.stdout());
    assertThat(d.fieldNames()).toIterable().containsExactly("pods", "nodes", "summary");
    assertThat(d.get("pods").get(0).fieldNames()).toIterable()
        .containsExactly("namespace", "name", "node", "managed", "containers");
    assertThat(d.get("pods").get(1).get("containers").toString()).isEqualTo(
        "[{\"name\":\"app\",\"requestMilli\":2000,\"limitMilli\":4568},"
            + "{\"name\":\"sidecar\",\"requestMilli\":500,\"limitMilli\":1142}]");
    assertThat(d.get("pods").get(0).get("containers").get(0).get("limitMilli").asLong()).isEqualTo(2290);
    assertThat(d.get("nodes").toString()).startsWith(
        "[{\"name\":\"n1\",\"allocatableMilli\":8000,\"slackMilli\":4500,\"factor\":2.28");
    assertThat(d.get("summary").toString())
        .isEqualTo("{\"events\":6,\"malformed\":0,\"decisions\":2,\"patches\":4}");
  }

  @Test
  void nodesInAPoolNameItAndTenancySplitsTheirSlackByNamespace() throws Exception {
    // given a batch pool (no multiplier cap) holding n1, tenancy by namespace, team-a weighted 2
    CliRun r = CliRun.run("simulate", "--watch-log", resource("pools-and-tenancy.jsonl").toString(),
        "--output", "json");
    assertThat(r.exitCode()).as(r.stderr()).isZero();
    JsonNode d = JSON.readTree(r.stdout());
    // then n1's 6 cores of slack split 2:1 between team-a and team-b, uncapped; n2 (no pool)
    // keeps the 10× cap; only the pooled node's line carries "pool"
    assertThat(d.get("nodes").toString()).isEqualTo(
        "[{\"name\":\"n1\",\"allocatableMilli\":8000,\"slackMilli\":6000,\"factor\":4.0,\"pool\":\"batch\"},"
            + "{\"name\":\"n2\",\"allocatableMilli\":8000,\"slackMilli\":7500,\"factor\":16.0}]");
    assertThat(d.get("pods").toString())
        .contains("\"name\":\"a-1\",\"node\":\"n1\",\"managed\":true,\"containers\":[{\"name\":\"app\",\"requestMilli\":1000,\"limitMilli\":5000}]")
        .contains("\"name\":\"b-1\",\"node\":\"n1\",\"managed\":true,\"containers\":[{\"name\":\"app\",\"requestMilli\":1000,\"limitMilli\":3000}]")
        .contains("\"name\":\"c-1\",\"node\":\"n2\",\"managed\":true,\"containers\":[{\"name\":\"app\",\"requestMilli\":500,\"limitMilli\":5000}]");
    // and the table grows a POOL column only then
    CliRun table = CliRun.run("simulate", "--watch-log", resource("pools-and-tenancy.jsonl").toString(),
        "--output", "table");
    assertThat(table.stdout()).contains("FACTOR  POOL").containsPattern("n1 .* batch");
    CliRun plain = CliRun.run("simulate", "--watch-log", resource("contract-example.jsonl").toString(),
        "--output", "table");
    assertThat(plain.stdout()).doesNotContain("POOL");
  }

  @Test
  void gangMembersShareTheLowestRatioAndTheirLinesNameTheGang() throws Exception {
    // given a gang by annotation (w-1 alone-ish on n1, w-2 on the busy n2) and a gang by Job owner
    // (spec.gangs.ownerKinds: [Job]; j-1 on n1, j-2 on n2), and a pod in no gang
    CliRun r = CliRun.run("simulate", "--watch-log", resource("gangs.jsonl").toString(), "--output", "json");
    assertThat(r.exitCode()).as(r.stderr()).isZero();
    JsonNode d = JSON.readTree(r.stdout());
    // then each gang runs at its busiest member's ratio (n2: w-2 1170m/1 core, j-2 670m/500m), so
    // w-1 and j-1 are held there though n1 alone would give them 5330m and 2670m; "gang" follows
    // "managed" only on a member's line
    assertThat(d.get("pods").toString())
        .contains("\"name\":\"w-1\",\"node\":\"n1\",\"managed\":true,\"gang\":\"team-a/train\",\"containers\":[{\"name\":\"app\",\"requestMilli\":1000,\"limitMilli\":1170}]")
        .contains("\"name\":\"w-2\",\"node\":\"n2\",\"managed\":true,\"gang\":\"team-a/train\",\"containers\":[{\"name\":\"app\",\"requestMilli\":1000,\"limitMilli\":1170}]")
        .contains("\"name\":\"j-1\",\"node\":\"n1\",\"managed\":true,\"gang\":\"team-a/Job/etl\",\"containers\":[{\"name\":\"app\",\"requestMilli\":500,\"limitMilli\":670}]")
        .contains("\"name\":\"j-2\",\"node\":\"n2\",\"managed\":true,\"gang\":\"team-a/Job/etl\",\"containers\":[{\"name\":\"app\",\"requestMilli\":500,\"limitMilli\":670}]")
        .contains("\"name\":\"busy\",\"node\":\"n2\",\"managed\":true,\"containers\":[{\"name\":\"app\",\"requestMilli\":6000,\"limitMilli\":6400}]");
    // and the pod table grows a GANG column only then
    CliRun table = CliRun.run("simulate", "--watch-log", resource("gangs.jsonl").toString(), "--output", "table");
    assertThat(table.stdout()).contains("LIMIT  GANG").containsPattern("w-1 .* team-a/train")
        .containsPattern("busy .* -\\R");
    CliRun plain = CliRun.run("simulate", "--watch-log", resource("contract-example.jsonl").toString(),
        "--output", "table");
    assertThat(plain.stdout()).doesNotContain("GANG");
  }

  @Test
  void aMalformedLineIsReportedByNumberSkippedAndCounted() throws Exception {
    List<String> lines = Files.readAllLines(resource("contract-example.jsonl"));
    Path log = tmp.resolve("log.jsonl");
    Files.write(log, List.of(lines.get(0), "{not json", "", lines.get(1),
        "{\"type\":\"EXPLODED\",\"object\":{\"kind\":\"Pod\"}}", lines.get(2), lines.get(3), lines.get(4), lines.get(5)));
    CliRun r = CliRun.run("simulate", "--watch-log", log.toString(), "--output", "json");
    assertThat(r.exitCode()).isZero();
    assertThat(r.stderr()).contains("line 2:").contains("line 5:");
    JsonNode d = JSON.readTree(r.stdout());
    assertThat(d.get("summary").get("malformed").asInt()).isEqualTo(2);
    assertThat(d.get("summary").get("events").asInt()).isEqualTo(6);
    assertThat(d.get("pods")).hasSize(2);
  }

  /**
   * Quantities near and past the 64-bit millicore range, which the API server accepts
   * (apimachinery caps what it cannot hold), never end the run: "huge" (two containers of
   * 9000000000000000 cores) and "beyond" (a request past the range) are skipped by name; a
   * request that is no quantity at all and a line that is no JSON are counted as malformed.
   */
  @Test
  void absurdQuantitiesFinishTheRunAndUnreadableLinesAreMalformed() throws Exception {
    CliRun r = CliRun.run("simulate", "--watch-log", resource("absurd-quantities.jsonl").toString(),
        "--output", "json");
    assertThat(r.exitCode()).as(r.stderr()).isZero();
    assertThat(r.stderr()).contains("line 6:").contains("\"lots\"").contains("line 7:")
        .doesNotContain("internal error");
    JsonNode d = JSON.readTree(r.stdout());
    assertThat(d.get("summary").toString())
        .isEqualTo("{\"events\":5,\"malformed\":2,\"decisions\":1,\"patches\":1}");
    assertThat(List.of(d.get("pods").get(0).get("name").asText(), d.get("pods").get(1).get("name").asText(),
        d.get("pods").get(2).get("name").asText())).containsExactly("beyond", "huge", "web");
    assertThat(d.get("pods").get(0).get("managed").asBoolean()).isFalse();
    assertThat(d.get("pods").get(0).get("containers").get(0).get("requestMilli").asLong())
        .isEqualTo(Long.MAX_VALUE);
    assertThat(d.get("pods").get(1).get("managed").asBoolean()).isFalse();
    assertThat(d.get("pods").get(2).get("containers").get(0).get("limitMilli").asLong()).isEqualTo(1_000);
    assertThat(d.get("nodes").get(0).get("slackMilli").asLong()).isZero();
  }

  @Test
  void theShippedExamplePrintsATableForPeople() {
    CliRun r = CliRun.run("simulate", "--watch-log", Path.of("../docs/examples/two-nodes.jsonl").toString(),
        "--output", "table");
    assertThat(r.exitCode()).as(r.stderr()).isZero();
    assertThat(r.stdout()).contains("NODE", "FACTOR", "node-a", "web-1", "MANAGED")
        .contains("12 events (0 malformed)");
    // The unmanaged daemon keeps its own limit; managed pods got limits above their requests.
    assertThat(r.stdout()).containsPattern("platform\\s+logs-1\\s+node-a\\s+no\\s+app\\s+2\\s+2");
    assertThat(r.stdout()).containsPattern("shop\\s+web-1\\s+node-a\\s+yes\\s+app\\s+1\\s+7\\b");
  }

  @Test
  void aMissingWatchLogIsOneLineAndExitCode2() {
    CliRun r = CliRun.run("simulate", "--watch-log", tmp.resolve("nope.jsonl").toString());
    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.stderr().strip()).isEqualTo("headroom simulate: --watch-log " + tmp.resolve("nope.jsonl") + ": no such file");
    assertThat(r.stdout()).isEmpty();
  }

  @Test
  void anInvalidConfigFileIsRefusedWithTheFieldNamed() throws IOException, URISyntaxException {
    Path config = tmp.resolve("hcfg.yaml");
    Files.writeString(config, "apiVersion: kube-headroom.dev/v1alpha1\nkind: HeadroomConfig\n"
        + "metadata: {name: cluster}\nspec: {maxMultiplier: \"150\"}\n");
    CliRun r = CliRun.run("simulate", "--watch-log", resource("contract-example.jsonl").toString(),
        "--config", config.toString());
    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.stderr().lines().toList()).singleElement().asString()
        .startsWith("headroom simulate: --config").contains("spec.maxMultiplier");
  }

  @Test
  void aConfigFileChangesTheOutcome() throws Exception {
    Path config = tmp.resolve("hcfg.yaml");
    Files.writeString(config, "apiVersion: kube-headroom.dev/v1alpha1\nkind: HeadroomConfig\n"
        + "metadata: {name: cluster}\nspec: {maxMultiplier: \"1.5\"}\n");
    CliRun r = CliRun.run("simulate", "--watch-log", resource("contract-example.jsonl").toString(),
        "--config", config.toString(), "--output", "json");
    assertThat(r.exitCode()).as(r.stderr()).isZero();
    JsonNode alpha = JSON.readTree(r.stdout()).get("pods").get(0);
    assertThat(alpha.get("containers").get(0).get("limitMilli").asLong()).isEqualTo(1500);
  }
}
