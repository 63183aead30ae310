package dev.kubeheadroom.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

/**
 * What kubectl users expect of {@code headroom}: {@code -o json|yaml|table} on every command that
 * prints a result, shell completion, documented distinct exit codes, progress only when asked
 * (or on a terminal). The contract's defaults (policy, simulate) are unchanged.
 */
class CliConventionsTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
  private static final String NODE = """
      {"allocatableMilli": 16000,
       "pods": [{"key": "A", "requestMilli": 500, "currentLimitMilli": 500, "managed": true, "userCapMilli": 0},
                {"key": "B", "requestMilli": 7500, "currentLimitMilli": 7500, "managed": true, "userCapMilli": 0}]}
      """;

  private static String log() throws Exception {
    return Path.of(CliConventionsTest.class.getResource("/contract-example.jsonl").toURI()).toString();
  }

  @ParameterizedTest
  @ValueSource(strings = {"policy", "simulate", "audit", "explain", "preflight"})
  void everyCommandThatPrintsAResultTakesDashO(String command) {
    CommandLine sub = Main.commandLine().getSubcommands().get(command);
    CommandLine.Model.OptionSpec output = sub.getCommandSpec().findOption("-o");

    assertThat(output).as(command).isNotNull();
    assertThat(output).isSameAs(sub.getCommandSpec().findOption("--output"));
    // simulate also draws a page; audit does too over a window, which its help says
    if (command.equals("simulate")) {
      assertThat(output.completionCandidates()).containsExactlyInAnyOrder("json", "yaml", "table", "html");
    } else {
      assertThat(output.completionCandidates()).containsExactlyInAnyOrder("json", "yaml", "table");
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"policy", "explain", "preflight"})
  void aCommandThatDrawsNoPageSaysSoInOneLine(String command) {
    // before any work: explain's replay would need a broker, preflight a cluster
    CliRun r = command.equals("explain")
        ? CliRun.run(command, "team-a/web-1", "-o", "html", "--kafka-bootstrap-servers", "127.0.0.1:1")
        : CliRun.withStdin("{}", command, "-o", "html");
    assertThat(r.exitCode()).as(r.stderr()).isEqualTo(ExitCodes.USAGE);
    assertThat(r.stderr().lines()).singleElement().asString().contains("-o html: ").contains("prints table, json or yaml");
  }

  @Test
  void policyKeepsItsContractJsonByDefaultAndAlsoSpeaksYamlAndTable() throws Exception {
    CliRun plain = CliRun.withStdin(NODE, "policy");
    CliRun json = CliRun.withStdin(NODE, "policy", "-o", "json");
    CliRun yaml = CliRun.withStdin(NODE, "policy", "-o", "yaml");
    CliRun table = CliRun.withStdin(NODE, "policy", "-o", "table");

    assertThat(plain.stdout()).isEqualTo(json.stdout()).startsWith("{\"slackMilli\": 8000, ");
    assertThat(YAML.readTree(yaml.stdout())).isEqualTo(JSON.readTree(json.stdout()));
    assertThat(table.stdout().lines().toList()).containsExactly(
        "slack 8000m, managed requests 8000m over 2 pods, factor 2.00",
        "KEY    TARGET  APPLY  REASON",
        "A       1500m  true   grow", // the 1-core burst floor beats the proportional 500m
        "B      15000m  true   grow");
  }

  @Test
  void simulateKeepsItsContractDefaultAndItsYamlIsTheSameDocument() throws Exception {
    CliRun piped = CliRun.run("simulate", "--watch-log", log());
    CliRun yaml = CliRun.run("simulate", "--watch-log", log(), "-o", "yaml");

    // CliRun has no console: the contract's default for a pipe is json.
    assertThat(piped.stdout()).isEqualTo(CliRun.run("simulate", "--watch-log", log(), "--output", "json").stdout());
    JsonNode fromYaml = YAML.readTree(yaml.stdout());
    assertThat(fromYaml).isEqualTo(JSON.readTree(piped.stdout()));
    assertThat(fromYaml.get("summary").get("events").asInt()).isEqualTo(6);
  }

  @Test
  void progressIsPrintedInPercentOnlyWhenAsked() throws Exception {
    CliRun quiet = CliRun.run("simulate", "--watch-log", log());
    CliRun asked = CliRun.run("simulate", "--watch-log", log(), "--progress");

    assertThat(quiet.stderr()).doesNotContain("%");
    assertThat(asked.stderr().lines()).last().isEqualTo("headroom simulate: 100%");
    assertThat(asked.stdout()).isEqualTo(quiet.stdout());
  }

  @Test
  void bashCompletionCoversSubcommandsAndOptions() {
    CliRun r = CliRun.run("completion", "bash");

    assertThat(r.exitCode()).isEqualTo(ExitCodes.OK);
    assertThat(r.stdout()).contains("complete -F").contains("audit").contains("preflight")
        .contains("--output").contains("--watch-log").contains("completion");
  }

  @Test
  void zshCompletionLoadsBashCompletionSupport() {
    CliRun r = CliRun.run("completion", "zsh");

    assertThat(r.exitCode()).isEqualTo(ExitCodes.OK);
    assertThat(r.stdout()).contains("bashcompinit").contains("complete -F");
  }

  @Test
  void anUnknownShellIsAUsageError() {
    CliRun r = CliRun.run("completion", "fish");

    assertThat(r.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(r.stderr()).contains("fish");
  }

  @Test
  void exitCodesAreDistinctAndDocumentedInTheHelp() {
    List<Integer> codes = List.of(ExitCodes.OK, ExitCodes.INTERNAL, ExitCodes.USAGE, ExitCodes.BLOCKED,
        ExitCodes.UNAVAILABLE);
    assertThat(codes).doesNotHaveDuplicates();
    // picocli's own usage-error code is ours, so a bad flag and a bad value agree.
    assertThat(ExitCodes.USAGE).isEqualTo(CommandLine.ExitCode.USAGE);
    assertThat(CliRun.run("audit", "--no-such-flag").exitCode()).isEqualTo(ExitCodes.USAGE);

    String help = CliRun.run("--help").stdout();
    assertThat(help).contains("Exit codes:");
    for (int code : codes) {
      assertThat(help).containsPattern("(?m)^\\s+" + code + "\\s+\\S");
    }
  }
}
