package dev.kubeheadroom.scenarios;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One-off measurement behind {@link SyntheticScenario}'s constants (not a test, never run by the
 * build): prints the trace's CPU-request table, memory per core, lifetime log-normal fit,
 * scheduling delay, owner and end-phase shares, and the occupancy a few {@link TraceScenario}
 * compressions give. Run from the repository root:
 * <pre>
 * mvn -B -o -q -pl tooling/scenarios -am test-compile dependency:build-classpath \
 *     -Dmdep.outputFile=target/cp.txt -Dmdep.includeScope=test
 * java -cp "tooling/scenarios/target/test-classes:scenarios/target/classes:$(cat tooling/scenarios/target/cp.txt)" \
 *   dev.kubeheadroom.scenarios.TraceShapeTool ../shared/traces/alibaba-openb
 * </pre>
 */
public final class TraceShapeTool {
  private TraceShapeTool() {}

  public static void main(String[] args) throws IOException {
    Path dir = Path.of(args.length > 0 ? args[0] : "../shared/traces/alibaba-openb");
    List<Map<String, String>> pods = TraceScenario.readCsv(dir.resolve(TraceScenario.POD_FILE));
    long[] sizes = SyntheticScenario.REQUEST_SIZES_MILLI;
    int[] counts = new int[sizes.length];
    List<Double> memPerCore = new ArrayList<>();
    List<Double> logLife = new ArrayList<>();
    List<Long> delays = new ArrayList<>();
    int be = 0;
    int failed = 0;
    int succeeded = 0;
    int scheduled = 0;
    for (Map<String, String> p : pods) {
      long cpu = Long.parseLong(p.get("cpu_milli"));
      int best = 0;
      for (int i = 1; i < sizes.length; i++) {
        if (Math.abs(Math.log(sizes[i]) - Math.log(cpu)) < Math.abs(Math.log(sizes[best]) - Math.log(cpu))) {
          best = i;
        }
      }
      counts[best]++;
      memPerCore.add(Long.parseLong(p.get("memory_mib")) / (cpu / 1000.0));
      long created = Long.parseLong(p.get("creation_time"));
      long deleted = Long.parseLong(p.get("deletion_time"));
      if (deleted > created) {
        logLife.add(Math.log(deleted - created));
      }
      if ("BE".equals(p.get("qos"))) {
        be++;
      }
      if (!p.get("scheduled_time").isEmpty()) {
        scheduled++;
        delays.add(Long.parseLong(p.get("scheduled_time")) - created);
        failed += "Failed".equals(p.get("pod_phase")) ? 1 : 0;
        succeeded += "Succeeded".equals(p.get("pod_phase")) ? 1 : 0;
      }
    }
    System.out.printf("pods %d, scheduled %d%n", pods.size(), scheduled);
    for (int i = 0; i < sizes.length; i++) {
      System.out.printf("request %6dm: %5d pods, %4d per mille%n", sizes[i], counts[i],
          Math.round(1000.0 * counts[i] / pods.size()));
    }
    memPerCore.sort(null);
    delays.sort(null);
    double mu = logLife.stream().mapToDouble(d -> d).average().orElse(0);
    double sigma = Math.sqrt(logLife.stream().mapToDouble(d -> (d - mu) * (d - mu)).average().orElse(0));
    System.out.printf("memory MiB per core, median %.0f%n", memPerCore.get(memPerCore.size() / 2));
    System.out.printf("lifetime log-normal mu %.2f sigma %.2f (median %.0f s)%n", mu, sigma, Math.exp(mu));
    System.out.printf("scheduling delay median %d s, p90 %d s%n", delays.get(delays.size() / 2),
        delays.get(delays.size() * 9 / 10));
    System.out.printf("BE (Job) share %.3f; of scheduled: Failed %.3f, Succeeded %.3f%n",
        (double) be / pods.size(), (double) failed / scheduled, (double) succeeded / scheduled);
    for (double[] c : new double[][] {{1000, 1000}, {2000, 20}, {2000, 10}, {5000, 20}}) {
      for (int nodes : new int[] {100, 300}) {
        Scenario s = TraceScenario.build(dir, TraceScenario.Options.defaults(nodes).withCompression(c[0], c[1]));
        System.out.printf("trace x%.0f/x%.0f %d nodes: %s, %d events%n", c[0], c[1], nodes, s.summary(),
            s.events().size());
      }
    }
  }
}
