package dev.kubeheadroom.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;

/**
 * {@code headroom policy} end to end through {@link Main#commandLine}: docs/design/cli-contract.md, "headroom
 * policy" (formats and exit codes), with the worked example of docs/design/headroom-design.txt §5.1.
 */
class PolicyCommandTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** The worked example of docs/design/headroom-design.txt §5.1, exactly as contract-smoke sends it. */
  private static final String WORKED_EXAMPLE =
      json(
          "{'allocatableMilli': 16000,"
              + " 'pods': [{'key': 'A', 'requestMilli': 500, 'currentLimitMilli': 500, 'managed': true, 'userCapMilli': 0},"
              + " {'key': 'B', 'requestMilli': 1500, 'currentLimitMilli': 1500, 'managed': true, 'userCapMilli': 0},"
              + " {'key': 'C', 'requestMilli': 6000, 'currentLimitMilli': 6000, 'managed': true, 'userCapMilli': 0}]}");

  /** Lets test inputs use ' for " (no key in these tests has an apostrophe). */
  private static String json(String singleQuoted) {
    return singleQuoted.replace('\'', '"');
  }

  private static String pod(String key, long request) {
    return json(
        "{'key': '" + key + "', 'requestMilli': " + request
            + ", 'currentLimitMilli': 0, 'managed': true, 'userCapMilli': 0}");
  }

  record Run(int exitCode, String stdout, String stderr) {}

  private static Run run(String stdin, String... args) {
    CommandLine cli =
        Main.commandLine(new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)));
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cli.setOut(new PrintWriter(out));
    cli.setErr(new PrintWriter(err));
    List<String> argv = new ArrayList<>(List.of("policy"));
    argv.addAll(List.of(args));
    int code = cli.execute(argv.toArray(String[]::new));
    return new Run(code, out.toString(), err.toString());
  }

  // ---------------------------------------------------------------- good input

  @Test
  void workedExamplePrintsTheContractFormatExactly() {
    // given the §5.1 worked example on stdin
    // when
    Run run = run(WORKED_EXAMPLE);
    // then exit 0, nothing on stderr, and the result in the contract's field order
    assertThat(run.exitCode()).isZero();
    assertThat(run.stderr()).isEmpty();
    assertThat(run.stdout())
        .isEqualTo(
            json(
                "{'slackMilli': 8000, 'managedRequestsMilli': 8000, 'managedPods': 3, 'factor': 2.0,\n"
                    + " 'decisions': [\n"
                    + "  {'key': 'A', 'targetLimitMilli': 1500, 'apply': true, 'reason': 'grow'},\n"
                    + "  {'key': 'B', 'targetLimitMilli': 3000, 'apply': true, 'reason': 'grow'},\n"
                    + "  {'key': 'C', 'targetLimitMilli': 12000, 'apply': true, 'reason': 'grow'}]}\n"));
  }

  @Test
  void requestOnAFullNodeIsQuantizedLikeEveryTarget() {
    // the quantization example's node: a managed 1005m pod and an unmanaged 1000m pod fill 2 cores
    String input = json("{'allocatableMilli': 2000, 'pods': [" + pod("a/x", 1_005) + ", "
        + "{'key': 'a/y', 'requestMilli': 1000, 'currentLimitMilli': 0, 'managed': false, 'userCapMilli': 0}]}");
    // when
    Run run = run(input);
    // then slack is 0 and the target is the request through step 4: 1010m (docs/design/policy.md)
    assertThat(run.exitCode()).isZero();
    assertThat(run.stdout()).isEqualTo(json(
        "{'slackMilli': 0, 'managedRequestsMilli': 1005, 'managedPods': 1, 'factor': 1.0,\n"
            + " 'decisions': [\n"
            + "  {'key': 'a/x', 'targetLimitMilli': 1010, 'apply': true, 'reason': 'set'}]}\n"));
    // and a 1004m request stays 1004m: rounding down would go below the request
    Run down = run(input.replace("1005", "1004").replace("\"allocatableMilli\": 2000", "\"allocatableMilli\": 2004"));
    assertThat(down.stdout()).contains("\"targetLimitMilli\": 1004");
  }

  @Test
  void outputIsJsonWithTheContractsFieldsInOrder() throws IOException {
    // when
    JsonNode result = JSON.readTree(run(WORKED_EXAMPLE).stdout());
    // then
    assertThat(fieldNames(result.fieldNames()))
        .containsExactly("slackMilli", "managedRequestsMilli", "managedPods", "factor", "decisions");
    assertThat(fieldNames(result.get("decisions").get(0).fieldNames()))
        .containsExactly("key", "targetLimitMilli", "apply", "reason");
  }

  @Test
  void readmeExampleFileRunsThroughTheCommand() throws IOException {
    // given the file the README's ./headroom policy example feeds it
    String node = Files.readString(Path.of("..", "docs", "examples", "node.json"));
    // when
    Run run = run(node);
    // then it is the worked example: targets 1500/3000/12000, all applied as grows
    assertThat(run.exitCode()).isZero();
    assertThat(run.stderr()).isEmpty();
    JsonNode result = JSON.readTree(run.stdout());
    assertThat(result.get("slackMilli").asLong()).isEqualTo(8_000);
    assertThat(result.get("factor").asDouble()).isEqualTo(2.0);
    assertThat(result.get("decisions").findValuesAsText("reason")).containsOnly("grow");
    assertThat(result.get("decisions").findValues("targetLimitMilli"))
        .extracting(JsonNode::asLong)
        .containsExactly(1_500L, 3_000L, 12_000L);
  }

  @Test
  void configFieldsAreOptionalAndDefaultOneByOne() throws IOException {
    // given the worked example with only the quantum and a decimal maxMultiplier configured
    String input =
        WORKED_EXAMPLE.replace(
            "{\"allocatableMilli\": 16000,",
            "{\"allocatableMilli\": 16000, \"config\": {\"quantumMilli\": 1000, \"maxMultiplier\": 1.5},");
    // when
    Run run = run(input);
    // then request × 1.5 = 750/2250/9000, rounded to whole cores within the cap (step-back)
    assertThat(run.stderr()).isEmpty();
    assertThat(JSON.readTree(run.stdout()).get("decisions").findValues("targetLimitMilli"))
        .extracting(JsonNode::asLong)
        .containsExactly(500L, 2_000L, 9_000L);
  }

  @Test
  void unmanagedPodsCountInTheSlackButGetNoDecision() throws IOException {
    // given one managed and one unmanaged pod
    String input =
        json("{'allocatableMilli': 4000, 'pods': [" + pod("m", 1000) + ", "
            + "{'key': 'u', 'requestMilli': 2000, 'currentLimitMilli': 0, 'managed': false, 'userCapMilli': 0}]}");
    // when
    JsonNode result = JSON.readTree(run(input).stdout());
    // then slack is 1000 and only the managed pod has a decision, set from no limit
    assertThat(result.get("slackMilli").asLong()).isEqualTo(1_000);
    assertThat(result.get("managedPods").asInt()).isEqualTo(1);
    assertThat(result.get("decisions")).hasSize(1);
    assertThat(result.get("decisions").get(0).get("reason").asText()).isEqualTo("set");
  }

  @Test
  void nodeWithoutPodsPrintsEmptyDecisions() {
    // when
    Run run = run("{\"allocatableMilli\": 4000, \"pods\": []}");
    // then
    assertThat(run.exitCode()).isZero();
    assertThat(run.stdout())
        .isEqualTo(
            json(
                "{'slackMilli': 4000, 'managedRequestsMilli': 0, 'managedPods': 0, 'factor': 1.0,\n"
                    + " 'decisions': []}\n"));
  }

  @Test
  void helpExitsZero() {
    Run run = run("", "--help");
    assertThat(run.exitCode()).isZero();
    assertThat(run.stdout()).contains("Usage: headroom policy");
  }

  // ---------------------------------------------------------------- bad input

  static Stream<Arguments> badInputs() {
    String pods = "'pods': [" + pod("A", 500) + "]";
    return Stream.of(
        // not a JSON object
        Arguments.of("", "input: empty; expected one node as a JSON object"),
        Arguments.of("   \n", "input: empty; expected one node as a JSON object"),
        Arguments.of("[]", "input: must be a JSON object"),
        Arguments.of("16000", "input: must be a JSON object"),
        // missing, negative, wrong type, non-integer
        Arguments.of(json("{" + pods + "}"), "allocatableMilli: required"),
        Arguments.of(json("{'allocatableMilli': -1, " + pods + "}"),
            "allocatableMilli: must be a non-negative integer"),
        Arguments.of(json("{'allocatableMilli': '16000', " + pods + "}"),
            "allocatableMilli: must be a non-negative integer"),
        Arguments.of(json("{'allocatableMilli': 16000.5, " + pods + "}"),
            "allocatableMilli: must be a non-negative integer"),
        Arguments.of(json("{'allocatableMilli': 1e4, " + pods + "}"),
            "allocatableMilli: must be a non-negative integer"),
        Arguments.of(json("{'allocatableMilli': null, " + pods + "}"),
            "allocatableMilli: must be a non-negative integer"),
        Arguments.of(json("{'allocatableMilli': 99999999999999999999, " + pods + "}"),
            "allocatableMilli: must be at most 1000000000000"),
        Arguments.of(json("{'allocatableMilli': 16000}"), "pods: required"),
        Arguments.of(json("{'allocatableMilli': 16000, 'pods': {}}"), "pods: must be an array"),
        Arguments.of(json("{'allocatableMilli': 16000, 'pods': [1]}"), "pods[0]: must be an object"),
        Arguments.of(
            json("{'allocatableMilli': 16000, 'pods': [" + pod("A", 1) + ", " + pod("B", 2) + ", "
                + pod("C", -3) + "]}"),
            "pods[2].requestMilli: must be a non-negative integer"),
        Arguments.of(json("{'allocatableMilli': 16000, 'pods': [" + pod("A", 1).replace("\"requestMilli\": 1, ", "") + "]}"),
            "pods[0].requestMilli: required"),
        Arguments.of(json("{'allocatableMilli': 16000, 'pods': [" + pod("A", 1).replace("\"key\": \"A\", ", "") + "]}"),
            "pods[0].key: required"),
        Arguments.of(json("{'allocatableMilli': 16000, 'pods': [" + pod("A", 1).replace("\"A\"", "7") + "]}"),
            "pods[0].key: must be a non-empty string"),
        Arguments.of(json("{'allocatableMilli': 16000, 'pods': [" + pod("A", 1).replace("\"managed\": true", "\"managed\": \"yes\"") + "]}"),
            "pods[0].managed: must be true or false"),
        Arguments.of(json("{'allocatableMilli': 16000, 'pods': [" + pod("A", 1).replace("\"currentLimitMilli\": 0", "\"currentLimitMilli\": 1.5") + "]}"),
            "pods[0].currentLimitMilli: must be a non-negative integer"),
        Arguments.of(json("{'allocatableMilli': 16000, 'pods': [" + pod("A", 1).replace(", \"userCapMilli\": 0", "") + "]}"),
            "pods[0].userCapMilli: required"),
        Arguments.of(json("{'allocatableMilli': 16000, 'pods': [" + pod("A", 1) + ", " + pod("A", 2) + "]}"),
            "pods[1].key: duplicate of pods[0].key"),
        Arguments.of(json("{'allocatableMilli': 16000, 'pods': [" + pod("A", 1).replace("}", ", 'cpu': 1}") + "]}"),
            "pods[0].cpu: unknown field"),
        // config: optional, but what is there must be right
        Arguments.of(json("{'allocatableMilli': 16000, 'config': [], " + pods + "}"),
            "config: must be an object"),
        Arguments.of(json("{'allocatableMilli': 16000, 'config': {'quantumMilli': -10}, " + pods + "}"),
            "config.quantumMilli: must be a non-negative integer"),
        Arguments.of(json("{'allocatableMilli': 16000, 'config': {'minBurstFloorMilli': 0.5}, " + pods + "}"),
            "config.minBurstFloorMilli: must be a non-negative integer"),
        Arguments.of(json("{'allocatableMilli': 16000, 'config': {'maxMultiplier': '10'}, " + pods + "}"),
            "config.maxMultiplier: must be a non-negative number"),
        Arguments.of(json("{'allocatableMilli': 16000, 'config': {'deadbandGrow': -0.1}, " + pods + "}"),
            "config.deadbandGrow: must be a non-negative number"),
        Arguments.of(json("{'allocatableMilli': 16000, 'config': {'deadbandShrink': true}, " + pods + "}"),
            "config.deadbandShrink: must be a non-negative number"),
        Arguments.of(json("{'allocatableMilli': 16000, 'config': {'quantum': 10}, " + pods + "}"),
            "config.quantum: unknown field"),
        Arguments.of(json("{'allocatableMilli': 16000, 'node': 'n1', " + pods + "}"),
            "node: unknown field"));
  }

  @ParameterizedTest(name = "{1}")
  @MethodSource("badInputs")
  void badInputExitsTwoWithOneLineNamingTheField(String stdin, String message) {
    // given malformed input
    // when
    Run run = run(stdin);
    // then exit 2, nothing on stdout, and exactly one line on stderr naming the field
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.stdout()).isEmpty();
    assertThat(run.stderr()).isEqualTo("headroom policy: " + message + System.lineSeparator());
  }

  static Stream<String> unparseable() {
    return Stream.of(
        "not json",
        "{\"allocatableMilli\": 16000,",
        "{\"allocatableMilli\": 16000, \"pods\": []} {}",
        "{\"allocatableMilli\": 1, \"allocatableMilli\": 2, \"pods\": []}",
        "{'allocatableMilli': 16000, 'pods': []}");
  }

  @ParameterizedTest
  @MethodSource("unparseable")
  void inputThatIsNotJsonExitsTwoWithOneLineAndNoStackTrace(String stdin) {
    // when
    Run run = run(stdin);
    // then
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.stdout()).isEmpty();
    assertThat(run.stderr()).startsWith("headroom policy: input: not valid JSON: ");
    assertThat(run.stderr().lines()).hasSize(1);
    assertThat(run.stderr()).doesNotContain("Exception").doesNotContain("\tat ");
  }

  private static List<String> fieldNames(java.util.Iterator<String> iterator) {
    List<String> list = new ArrayList<>();
    iterator.forEachRemaining(list::add);
    return list;
  }
}
