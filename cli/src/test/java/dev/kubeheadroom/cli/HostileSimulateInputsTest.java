package dev.kubeheadroom.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code simulate} fed what an adversarial tester fed it: every run ends with exit 0 (the bad line
 * counted and named) or 2 (one line), never an internal error.
 */
class HostileSimulateInputsTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  @TempDir Path tmp;

  private static List<String> contract() throws Exception {
    return Files.readAllLines(Path.of(HostileSimulateInputsTest.class.getResource("/contract-example.jsonl").toURI()));
  }

  private Path log(List<String> lines) throws Exception {
    Path log = tmp.resolve("log.jsonl");
    Files.write(log, lines);
    return log;
  }

  private static void finishedWithOneMalformed(CliRun r, String reason) throws Exception {
    assertThat(r.exitCode()).as(r.stderr()).isZero();
    assertThat(r.stderr()).contains(reason).doesNotContain("internal error").doesNotContain("\tat ");
    assertThat(JSON.readTree(r.stdout()).get("summary").get("malformed").asInt()).isEqualTo(1);
  }

  @Test
  void aTimeBefore1970OrPastTheRangeIsAMalformedLine() throws Exception {
    for (String at : List.of("1969-07-20T20:17:40Z", "+999999999-12-31T23:59:59Z")) {
      List<String> lines = new ArrayList<>(contract());
      lines.set(2, lines.get(2).replaceFirst("\"at\":\"[^\"]*\"", "\"at\":\"" + at + "\""));
      assertThat(lines.get(2)).contains(at);
      CliRun r = CliRun.run("simulate", "--watch-log", log(lines).toString(), "-o", "json");
      finishedWithOneMalformed(r, "line 3: bad time \"" + at + "\"");
    }
  }

  @Test
  void goZeroTimeEverywhereIsUnsetAndTheRunFinishes() throws Exception {
    List<String> lines = contract().stream().map(l -> l.replaceAll("\"at\":\"[^\"]*\"", "\"at\":\"0001-01-01T00:00:00Z\"")).toList();
    CliRun r = CliRun.run("simulate", "--watch-log", log(lines).toString(), "-o", "json");
    assertThat(r.exitCode()).as(r.stderr()).isZero();
    JsonNode summary = JSON.readTree(r.stdout()).get("summary");
    assertThat(summary.get("events").asInt()).isEqualTo(6);
    assertThat(summary.get("malformed").asInt()).isZero();
  }

  @Test
  void oneByteThatIsNotUtf8IsAMalformedLineAndTheRunGoesOn() throws Exception {
    List<String> lines = contract();
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    for (int i = 0; i < lines.size(); i++) {
      byte[] line = lines.get(i).getBytes(StandardCharsets.UTF_8);
      if (i == 2) {
        line = lines.get(i).replace("\"uid\":", "\"x\":\"caf\u00e9\",\"uid\":").getBytes(StandardCharsets.ISO_8859_1);
      }
      bytes.writeBytes(line);
      bytes.write('\n');
    }
    Path log = tmp.resolve("latin1.jsonl");
    Files.write(log, bytes.toByteArray());
    CliRun r = CliRun.run("simulate", "--watch-log", log.toString(), "-o", "json");
    finishedWithOneMalformed(r, "line 3: not UTF-8");
  }

  @Test
  void aNullContainerIsAMalformedLineNamingThePath() throws Exception {
    List<String> lines = new ArrayList<>(contract());
    int pod = lines.size() - 1;
    lines.set(pod, lines.get(pod).replace("\"containers\":[", "\"containers\":[null,"));
    CliRun r = CliRun.run("simulate", "--watch-log", log(lines).toString(), "-o", "json");
    finishedWithOneMalformed(r, "spec.containers[0] is null");
  }

  @Test
  void aRecursiveYamlAliasInTheConfigIsOneLineAndExit2() throws Exception {
    Path config = tmp.resolve("hcfg.yaml");
    Files.writeString(config, "apiVersion: kube-headroom.dev/v1alpha1\nkind: HeadroomConfig\n"
        + "metadata: {name: cluster}\nspec:\n  a: &a [*a]\n");
    CliRun r = CliRun.run("simulate", "--watch-log", log(contract()).toString(), "--config", config.toString());
    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.stderr().lines().toList()).singleElement().asString()
        .startsWith("headroom simulate: --config " + config).contains("line 5").contains("recursive YAML alias");
  }

  @Test
  void aWatchLogPipedOnStandardInputIsRead() throws Exception {
    String log = String.join("\n", contract()) + "\n";
    CliRun piped = CliRun.withStdin(log, "simulate", "--watch-log", "-", "-o", "json");
    CliRun file = CliRun.run("simulate", "--watch-log", log(contract()).toString(), "-o", "json");
    assertThat(piped.exitCode()).as(piped.stderr()).isZero();
    assertThat(piped.stdout()).isEqualTo(file.stdout());
  }

  @Test
  void kubectlsPrettyPrintedWatchOutputIsReadFromAPipe() throws Exception {
    // kubectl get pods -w -o json --output-watch-events: each event over many lines, concatenated
    StringBuilder events = new StringBuilder();
    StringBuilder objects = new StringBuilder(); // the same without --output-watch-events
    for (String line : contract()) {
      JsonNode event = JSON.readTree(line);
      events.append(JSON.writerWithDefaultPrettyPrinter().writeValueAsString(event)).append('\n');
      objects.append(JSON.writerWithDefaultPrettyPrinter().writeValueAsString(event.get("object"))).append('\n');
    }
    CliRun file = CliRun.run("simulate", "--watch-log", log(contract()).toString(), "-o", "json");

    CliRun piped = CliRun.withStdin(events.toString(), "simulate", "--watch-log", "-", "-o", "json");
    assertThat(piped.exitCode()).as(piped.stderr()).isZero();
    assertThat(piped.stdout()).isEqualTo(file.stdout());

    CliRun bare = CliRun.withStdin(objects.toString(), "simulate", "--watch-log", "-", "-o", "json");
    assertThat(bare.exitCode()).as(bare.stderr()).isZero();
    JsonNode report = JSON.readTree(bare.stdout());
    assertThat(report.get("summary").get("malformed").asInt()).as(bare.stderr()).isZero();
    assertThat(report.get("pods").findValuesAsText("name")).as("every object an upsert")
        .containsAll(JSON.readTree(file.stdout()).get("pods").findValuesAsText("name"));
  }

  @Test
  void aBindingErrorNamesTheFieldPathNotAJavaType() throws Exception {
    int pod = contract().size() - 1;
    var cases = java.util.Map.of(
        "\"containers\":\"x\",\"was\":[", "bad Pod: spec.containers: expected an array, got a string",
        "\"containers\":[{\"name\":\"bad\",\"resources\":{\"requests\":{\"cpu\":{\"a\":1}}}},",
        "bad Pod: spec.containers[0].resources.requests.cpu: not a quantity");
    for (var c : cases.entrySet()) {
      List<String> lines = new ArrayList<>(contract());
      lines.set(pod, lines.get(pod).replace("\"containers\":[", c.getKey()));
      CliRun r = CliRun.run("simulate", "--watch-log", log(lines).toString(), "-o", "json");
      finishedWithOneMalformed(r, "line " + (pod + 1) + ": " + c.getValue());
      assertThat(r.stderr()).doesNotContain("java.").doesNotContain("fabric8");
    }
  }

  @Test
  void aPodWithoutAUidIsCountedAsMalformed() throws Exception {
    List<String> lines = new ArrayList<>(contract());
    int pod = lines.size() - 1;
    lines.set(pod, lines.get(pod).replaceFirst("\"uid\":\"[^\"]*\",", ""));
    CliRun r = CliRun.run("simulate", "--watch-log", log(lines).toString(), "-o", "json");
    finishedWithOneMalformed(r, "line " + (pod + 1) + ": Pod(");
  }

  @Test
  void aNodeWithoutAllocatableIsWarnedAbout() throws Exception {
    List<String> lines = new ArrayList<>(contract());
    int node = 1;
    assertThat(lines.get(node)).contains("\"kind\":\"Node\"");
    lines.set(node, lines.get(node).replaceFirst("\"allocatable\":\\{[^}]*\\},?", ""));
    assertThat(lines.get(node)).doesNotContain("allocatable");
    CliRun r = CliRun.run("simulate", "--watch-log", log(lines).toString(), "-o", "json");
    assertThat(r.exitCode()).as(r.stderr()).isZero();
    assertThat(r.stderr()).contains("line 2: Node(n1): no status.allocatable.cpu");
  }

  @Test
  void aMisspelledConfigFieldIsWarnedAboutWithItsPathAndLine() throws Exception {
    Path config = tmp.resolve("hcfg.yaml");
    Files.writeString(config, "apiVersion: kube-headroom.dev/v1alpha1\nkind: HeadroomConfig\n"
        + "metadata: {name: cluster}\nspec:\n  maxMultiplyer: \"3\"\n  deadband: {grw: 5}\n  quantum: 10m\n");
    CliRun r = CliRun.run("simulate", "--watch-log", log(contract()).toString(), "--config", config.toString(), "-o", "json");
    assertThat(r.exitCode()).as(r.stderr()).isZero();
    assertThat(r.stderr().lines().toList()).containsExactly(
        "headroom simulate: --config " + config + ": line 5: spec.maxMultiplyer: unknown field, ignored",
        "headroom simulate: --config " + config + ": line 6: spec.deadband.grw: unknown field, ignored");
  }

  @Test
  void namesWithControlCharactersAreEscapedInTheTable() throws Exception {
    List<String> lines = new ArrayList<>(contract());
    int pod = lines.size() - 1;
    String name = lines.get(pod).replaceFirst(".*\"metadata\":\\{\"name\":\"([^\"]*)\".*", "$1");
    lines.set(pod, lines.get(pod).replace("\"name\":\"" + name + "\"",
        "\"name\":\"" + name + "\\nshop  forged\\t\\u202eevil\""));
    CliRun r = CliRun.run("simulate", "--watch-log", log(lines).toString(), "-o", "table");
    assertThat(r.exitCode()).as(r.stderr()).isZero();
    assertThat(r.stdout()).contains(name + "\\nshop  forged\\t\\u202eevil")
        .doesNotContain("\u202e").doesNotContain("\t").doesNotContain("\nshop  forged");
    CliRun json = CliRun.run("simulate", "--watch-log", log(lines).toString(), "-o", "json");
    // the JSON keeps the name as it is (JSON escapes what it must)
    List<String> names = new ArrayList<>();
    JSON.readTree(json.stdout()).get("pods").forEach(p -> names.add(p.get("name").asText()));
    assertThat(names).contains(name + "\nshop  forged\t\u202eevil");
  }
}
