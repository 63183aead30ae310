package dev.kubeheadroom.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.kubeheadroom.cli.preflight.Check;
import dev.kubeheadroom.cli.preflight.Cluster;
import dev.kubeheadroom.cli.preflight.ClusterReader;
import dev.kubeheadroom.cli.preflight.PreflightException;
import dev.kubeheadroom.cli.preflight.Result;
import dev.kubeheadroom.cli.preflight.Status;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code headroom preflight}: the runbook's preflight against the current cluster, one row per
 * check with the fix for each finding. Exit 0 when nothing fails, {@link ExitCodes#BLOCKED} when
 * something blocks enforcement, {@link ExitCodes#USAGE} when the cluster cannot be read at all.
 */
@Command(name = "preflight", mixinStandardHelpOptions = true,
    description = {"Checks the current cluster against the runbook's preflight, with a fix for each finding.",
        "It checks the Kubernetes version, limits.cpu quotas, LimitRange caps, excluded nodes, "
            + "limit-controlling VPAs, cert-manager and the HeadroomConfig.",
        "Exit code 3 when anything blocks enforcement."})
public final class PreflightCommand implements Callable<Integer> {
  /** Exit code when at least one check fails. */
  static final int BLOCKED = ExitCodes.BLOCKED;
  /** Table findings wrap at this width. */
  static final int FINDING_WIDTH = 64;

  @Spec CommandSpec spec;
  @Mixin KubeOptions kube;

  @Option(names = {"-o", "--output"}, paramLabel = "table|json|yaml", description = OutputFormat.DESCRIPTION,
      completionCandidates = OutputFormat.Text.class)
  OutputFormat output;

  @Override
  public Integer call() {
    OutputFormat format = OutputFormat.notHtml(OutputFormat.orTable(output), "preflight");
    List<Result> results;
    // One retry: a one-shot check should answer "unreachable" in a second, not after the
    // client's default ten exponential back-offs.
    try (KubernetesClient client = kube.client(config -> config.setRequestRetryBackoffLimit(1))) {
      results = Check.runAll(ClusterReader.read(client));
    } catch (PreflightException e) {
      throw e.isUnreachable() ? new Unavailable(e.getMessage()) : new UserError(e.getMessage());
    }
    PrintWriter out = spec.commandLine().getOut();
    if (format == OutputFormat.json) {
      json(results, out);
    } else if (format == OutputFormat.yaml) {
      StructuredOutput.write(format, results, out);
    } else {
      table(results, out);
    }
    out.flush();
    return results.stream().anyMatch(r -> r.status() == Status.FAIL) ? BLOCKED : 0;
  }

  static void json(List<Result> results, PrintWriter out) {
    try {
      out.println(new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(results));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("preflight results do not serialize", e);
    }
  }

  /**
   * {@code CHECK | STATUS | FINDING | FIX}, then {@code N passed, N warnings, N failed}. Findings
   * wrap at {@value #FINDING_WIDTH} characters; fixes never wrap, so commands stay copyable.
   */
  static void table(List<Result> results, PrintWriter out) {
    int check = "CHECK".length();
    int status = "STATUS".length();
    int finding = "FINDING".length();
    for (Result r : results) {
      check = Math.max(check, r.check().length());
      status = Math.max(status, r.status().name().length());
      for (String line : wrap(r.finding(), FINDING_WIDTH)) {
        finding = Math.max(finding, line.length());
      }
    }
    String cells = "%-" + check + "s | %-" + status + "s | %s";
    String withFix = "%-" + check + "s | %-" + status + "s | %-" + finding + "s | %s";
    out.println(String.format(withFix, "CHECK", "STATUS", "FINDING", "FIX"));
    for (Result r : results) {
      List<String> lines = wrap(r.finding(), FINDING_WIDTH);
      out.println(r.fix() == null ? String.format(cells, r.check(), r.status(), lines.get(0))
          : String.format(withFix, r.check(), r.status(), lines.get(0), r.fix()));
      for (String more : lines.subList(1, lines.size())) {
        out.println(String.format(cells, "", "", more));
      }
    }
    out.printf("%d passed, %d warnings, %d failed%n", count(results, Status.PASS), count(results, Status.WARN),
        count(results, Status.FAIL));
  }

  /** Splits at spaces into lines of at most {@code width} (a longer word keeps its own line). */
  static List<String> wrap(String text, int width) {
    List<String> lines = new ArrayList<>();
    StringBuilder line = new StringBuilder();
    for (String word : text.split(" ")) {
      if (line.length() > 0 && line.length() + 1 + word.length() > width) {
        lines.add(line.toString());
        line.setLength(0);
      }
      if (line.length() > 0) {
        line.append(' ');
      }
      line.append(word);
    }
    lines.add(line.toString());
    return lines;
  }

  private static long count(List<Result> results, Status status) {
    return results.stream().filter(r -> r.status() == status).count();
  }
}
