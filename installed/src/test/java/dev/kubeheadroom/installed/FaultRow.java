package dev.kubeheadroom.installed;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * One line of the fault table.
 *
 * @param fault what was done to the live pipeline
 * @param mode split (a process per stage) or all-in-one ({@code headroom run})
 * @param injected how many times the fault was injected (refusals: how many resizes were refused)
 * @param lost pods whose last enforcing decision on the decisions topic never reached the API server
 * @param duplicates accepted resizes repeating the pod's previous accepted resize ({@link PatchLog})
 * @param converge from the fault healed to every limit where the policy wants it (empty: never,
 *     within the suite's bound)
 * @param badInputs hostile or stale inputs offered to the pipeline (out-of-range pods, refused
 *     resizes, decisions superseded or made under a revoked enforce)
 * @param unplannedRestarts replicas that exited on their own and were restarted (kubelet's part)
 * @param problems what went wrong, one line each (pods off target when the bound ran out, lost
 *     decisions, duplicates, patches under dry run, too many retries): empty when all is well
 * @param notes what is not a problem but explains a figure: a decision never applied because a
 *     later state of the node made it moot (the pod's limit is one the policy keeps)
 */
record FaultRow(String fault, String mode, int injected, int lost, int duplicates, Optional<Duration> converge,
    int badInputs, int unplannedRestarts, List<String> problems, List<String> notes) {
  FaultRow {
    problems = List.copyOf(problems);
    notes = List.copyOf(notes);
  }

  String markdown() {
    return "| " + fault + " | " + mode + " | " + injected + " | " + lost + " | " + duplicates + " | "
        + converge.map(d -> String.format("%.1f s", d.toMillis() / 1000.0)).orElse("never") + " | " + badInputs
        + " | " + unplannedRestarts + " |";
  }

  static String table(List<FaultRow> rows) {
    StringBuilder out = new StringBuilder("| fault | mode | times injected | decisions lost | duplicate patches "
        + "| max time to converge | bad inputs tried | unplanned restarts |\n| --- | --- | --- | --- | --- | --- | --- | --- |\n");
    rows.forEach(r -> out.append(r.markdown()).append('\n'));
    return out.toString();
  }

  /** The table, then each row's problems and notes, one line each. */
  static String report(List<FaultRow> rows) {
    StringBuilder out = new StringBuilder(table(rows)).append('\n');
    rows.forEach(r -> r.problems().forEach(p -> out.append("- ").append(r.mode()).append(", ").append(r.fault())
        .append(": ").append(p).append('\n')));
    rows.forEach(r -> r.notes().forEach(n -> out.append("- ").append(r.mode()).append(", ").append(r.fault())
        .append(" (note): ").append(n).append('\n')));
    return out.toString();
  }
}
