package dev.kubeheadroom.cli;

import dev.kubeheadroom.cli.PolicyRequestReader.PolicyRequest;
import dev.kubeheadroom.policy.NodeResult;
import dev.kubeheadroom.policy.SlackPolicy;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.util.Objects;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code headroom policy}: runs the pure policy on one node read from stdin and prints the result
 * (docs/design/cli-contract.md). No Kafka, no cluster.
 */
@Command(
    name = "policy",
    mixinStandardHelpOptions = true,
    description = {
      "Reads one node as JSON on stdin, prints the policy's node stats and decisions as JSON.",
      "Input: {\"allocatableMilli\": N, \"config\": {...optional...}, \"pods\": [{\"key\": \"A\","
          + " \"requestMilli\": N, \"currentLimitMilli\": N, \"managed\": true, \"userCapMilli\": 0}]}",
      "Bad input exits with code 2 and one line on stderr naming the field."
    })
final class PolicyCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  // The CLI contract fixes json as the default here: tools pipe this command.
  @Option(names = {"-o", "--output"}, paramLabel = "json|table|yaml", defaultValue = "json",
      completionCandidates = OutputFormat.Text.class,
      description = "json (default; the contract's exact form), table or yaml.")
  OutputFormat output = OutputFormat.json;

  private final InputStream stdin;

  PolicyCommand(InputStream stdin) {
    this.stdin = Objects.requireNonNull(stdin, "stdin");
  }

  @Override
  public Integer call() {
    OutputFormat.notHtml(output, "policy");
    byte[] input;
    try {
      input = stdin.readAllBytes();
    } catch (IOException e) {
      throw new UserError("stdin: cannot read: " + e.getMessage());
    }
    PolicyRequest request = PolicyRequestReader.read(input);
    NodeResult result =
        SlackPolicy.computeNode(request.allocatableMilli(), request.pods(), request.config());
    PrintWriter out = spec.commandLine().getOut();
    switch (output) {
      case json -> out.print(PolicyResultWriter.write(result));
      case yaml -> StructuredOutput.yamlOfJson(PolicyResultWriter.write(result), out);
      case table -> PolicyResultWriter.table(result, out);
    }
    out.flush();
    return ExitCodes.OK;
  }
}
