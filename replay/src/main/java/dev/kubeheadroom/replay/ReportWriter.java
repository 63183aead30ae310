package dev.kubeheadroom.replay;

import dev.kubeheadroom.schemas.JsonCodec;
import java.io.PrintWriter;
import java.util.Locale;

/** Prints a {@link ClusterReport}: the contract's JSON, or a table for people. */
public final class ReportWriter {
  private ReportWriter() {}

  public static void json(ClusterReport report, PrintWriter out) {
    out.println(JsonCodec.encodeToString(report));
    out.flush();
  }

  public static void table(ClusterReport report, PrintWriter out) {
    // A POOL column only when some node is in a pool: output without pools is unchanged.
    boolean pools = report.nodes().stream().anyMatch(n -> n.pool() != null);
    out.printf(Locale.ROOT, "%-24s %10s %10s %8s%s%n", "NODE", "ALLOCATABLE", "SLACK", "FACTOR",
        pools ? "  POOL" : "");
    for (ClusterReport.NodeLine n : report.nodes()) {
      out.printf(Locale.ROOT, "%-24s %10s %10s %8.2f%s%n", Printable.escape(n.name()), cpu(n.allocatableMilli()),
          cpu(n.slackMilli()), n.factor(), pools ? "  " + (n.pool() == null ? "-" : Printable.escape(n.pool())) : "");
    }
    out.println();
    // A GANG column only when some pod is in a gang: output without gangs is unchanged.
    boolean gangs = report.pods().stream().anyMatch(p -> p.gang() != null);
    out.printf(Locale.ROOT, "%-20s %-28s %-16s %-8s %-16s %9s %9s%s%n",
        "NAMESPACE", "POD", "NODE", "MANAGED", "CONTAINER", "REQUEST", "LIMIT", gangs ? "  GANG" : "");
    for (ClusterReport.PodLine p : report.pods()) {
      for (ClusterReport.ContainerLine c : p.containers()) {
        // Names are escaped: a newline or a bidi override in one would forge or reorder rows.
        out.printf(Locale.ROOT, "%-20s %-28s %-16s %-8s %-16s %9s %9s%s%n", Printable.escape(p.namespace()),
            Printable.escape(p.name()), Printable.escape(p.node()), p.managed() ? "yes" : "no",
            Printable.escape(c.name()), cpu(c.requestMilli()), c.limitMilli() == 0 ? "-" : cpu(c.limitMilli()),
            gangs ? "  " + (p.gang() == null ? "-" : Printable.escape(p.gang())) : "");
      }
    }
    ClusterReport.Summary s = report.summary();
    out.println();
    out.printf(Locale.ROOT, "%d events (%d malformed), %d decisions, %d patches%n",
        s.events(), s.malformed(), s.decisions(), s.patches());
    out.flush();
  }

  /** A CPU quantity for people: {@code 2}, {@code 1500m}. */
  public static String cpu(long value) {
    return value % 1000 == 0 ? Long.toString(value / 1000) : value + "m";
  }
}
